import ArgumentParser
import FaceAnalysis
import Foundation
import Inference

// A benchmark: compiled only with FACEPIPE_BENCHMARKS set (Package.swift, Benchmarks).
#if FACEPIPE_BENCHMARKS
/// `facepipe model bench MODEL [--iterations N]`: latency of one interpreter on one thread.
struct ModelBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time N invocations after a warm-up; prints thread CPU time (cpu_median_ms) and, last, wall time median_ms=<value>."
    )

    @Argument(help: "The .tflite file.")
    var model: String

    @Option(help: "Timed invocations.")
    var iterations = 100

    @Option(help: "Untimed invocations first.")
    var warmup = 10

    @Flag(help: "Also time each plan step (thread CPU time, mean over the iterations) and print totals per operator kind and per step; with --stream, each streamed step's windows.")
    var profile = false

    @Option(name: .customLong("input"), help: "Raw float32 input files (default: seeded uniform values in [-1, 1)).")
    var inputs: [String] = []

    @Flag(help: "Run the model rows at a time (RowStreamingInterpreter: input bands in, head rows out) instead of whole tensors.")
    var stream = false

    @Option(help: "With --stream: input rows per band (default: the canvas detector's).")
    var bandRows = CanvasDetector.bandRows

    @Option(name: .customLong("input-size"),
            help: "Re-plan a fully convolutional image model for a WIDTHxHEIGHT input first (e.g. 304x240, an accurate-mode canvas).")
    var inputSize: String?

    @Option(name: .customLong("first-convolution"),
            help: "float32, or int8: plan the first layer on the input's bytes (an image model whose first operator is a CONV_2D; random bytes in).")
    var firstConvolution: FirstConvolution = .float32

    @Option(help: "float32, or int8: plan the block projections (1×1 convolutions after a depthwise one) in int8, each input pixel quantized by its largest magnitude.")
    var pointwise: PointwiseConvolution = .float32

    @Flag(name: .customLong("static-int8"),
          help: "With YuNet-s's weights: hold its activations as bytes on its calibrated grids (canvas arithmetic static-int8; docs/YUNET.md).")
    var staticInt8 = false

    func run() throws {
        try ModelCommandSupport.guarded {
            guard iterations >= 1, iterations <= 1_000_000, warmup >= 0, warmup <= 1_000_000 else {
                throw ModelCommandError.iterations(iterations, warmup: warmup)
            }
            var prepared = try ModelCommandSupport.loadModel(model)
            if let inputSize { prepared = try Self.resize(prepared, to: inputSize) }
            let grids = staticInt8 ? YuNetGrids.calibrated : nil
            if firstConvolution != prepared.firstConvolution || pointwise != prepared.pointwise || grids != nil {
                guard inputs.isEmpty || firstConvolution == .float32 else {
                    throw ModelCommandError.inputWithInt8
                }
                prepared = try prepared.resized(inputShape: prepared.inputs[0].shape, firstConvolution: firstConvolution, pointwise: pointwise,
                                                grids: grids)
            }
            var values: [[Float]] = []
            var bytes: [UInt8] = []
            var state: UInt64 = 0x5EED
            func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state
            }
            if prepared.firstConvolution == .int8 {
                bytes = (0..<prepared.inputs[0].elementCount).map { _ in UInt8(truncatingIfNeeded: next() >> 56) }
            } else if inputs.isEmpty {
                for input in prepared.inputs {
                    values.append((0..<input.elementCount).map { _ in Float(next() >> 40) / 8_388_608 - 1 })
                }
            } else {
                guard inputs.count == prepared.inputs.count else {
                    throw ModelCommandError.tensorCount(flag: "--input", tensors: prepared.inputs, given: inputs.count)
                }
                for (index, path) in inputs.enumerated() {
                    values.append(try ModelCommandSupport.readTensor(path, for: prepared.inputs[index], index: index))
                }
            }
            let invoke: () -> Void
            /// With --profile: one more round of the iterations, adding each step's CPU time to the buffer.
            var profiled: ((UnsafeMutableBufferPointer<Double>) -> Void)?
            if stream {
                let streaming = try RowStreamingInterpreter(model: prepared, bandRows: bandRows)
                let rowElements = prepared.inputs[0].shape.dropFirst(2).reduce(1, *)
                if prepared.firstConvolution == .int8 {
                    invoke = { [bytes] in
                        streaming.runBytes(input: { rows, buffer in
                            _ = buffer.update(fromContentsOf: bytes[(rows.lowerBound * rowElements)..<(rows.upperBound * rowElements)])
                        }, output: { _, _, _ in })
                    }
                } else {
                    let input = values[0]
                    invoke = {
                        streaming.run { rows, buffer in
                            _ = buffer.update(fromContentsOf: input[(rows.lowerBound * rowElements)..<(rows.upperBound * rowElements)])
                        } output: { _, _, _ in }
                    }
                }
                profiled = { [iterations] totals in streaming.profiling(into: totals) { for _ in 0..<iterations { invoke() } } }
                print("stream_arena_floats=\(streaming.arenaFloatCount) whole_arena_floats=\(prepared.statistics.arenaFloats) band_rows=\(bandRows)")
            } else {
                let whole = try Interpreter(model: prepared)
                if prepared.firstConvolution == .int8 {
                    whole.withByteInput { _ = $0.update(fromContentsOf: bytes) }
                } else {
                    for (index, input) in values.enumerated() { whole.withInput(index) { _ = $0.update(from: input) } }
                }
                invoke = whole.invoke
                profiled = { [iterations] totals in for _ in 0..<iterations { whole.invokeProfiled(accumulatingInto: totals) } }
            }
            for _ in 0..<warmup { invoke() }
            var times: [Double] = [], cpuTimes: [Double] = []
            times.reserveCapacity(iterations)
            cpuTimes.reserveCapacity(iterations)
            let clock = ContinuousClock()
            for _ in 0..<iterations {
                let cpuStart = threadCPUNanoseconds()
                let elapsed = clock.measure { invoke() }
                cpuTimes.append(Double(threadCPUNanoseconds() - cpuStart) / 1e6)
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
            times.sort()
            cpuTimes.sort()
            func middle(_ sorted: [Double]) -> Double {
                sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
            let median = middle(times)
            let mean = times.reduce(0, +) / Double(times.count)
            print("model=\(URL(fileURLWithPath: model).lastPathComponent) iterations=\(iterations) warmup=\(warmup) threads=1 kernels=\(prepared.kernels)"
                  + (prepared.firstConvolution == .int8 ? " first_convolution=int8" : "")
                  + (prepared.pointwise == .float32 ? "" : " pointwise=\(prepared.pointwise)")
                  + (prepared.grids == nil ? "" : " activations=static-int8"))
            print(String(format: "min_ms=%.4f mean_ms=%.4f max_ms=%.4f", times[0], mean, times[times.count - 1]))
            print(String(format: "gflops=%.1f", Double(prepared.statistics.multiplyAccumulates) * 2 / (median * 1e6)))
            // CPU time of this thread: what the invocation cost, without time spent waiting for a core.
            print(String(format: "cpu_median_ms=%.4f", middle(cpuTimes)))
            if profile, let profiled { printProfile(prepared, profiled) }
            print(String(format: "median_ms=%.4f", median))
        }
    }

    /// `model` re-planned for a `WIDTHxHEIGHT` input (NHWC, batch and channels kept).
    static func resize(_ model: Model, to size: String) throws -> Model {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...4096).contains(parts[0]), (1...4096).contains(parts[1]) else {
            throw ModelCommandError.inputSize(size)
        }
        guard let shape = model.inputs.first?.shape, model.inputs.count == 1, shape.count == 4 else {
            throw ModelCommandError.inputSizeNeedsImage
        }
        return try model.resized(inputShape: [shape[0], parts[1], parts[0], shape[3]])
    }

    /// Per-kind and per-step CPU time (mean per invocation over the
    /// `iterations` that `profiled` runs), with each step's share and GFLOP/s.
    func printProfile(_ model: Model, _ profiled: (UnsafeMutableBufferPointer<Double>) -> Void) {
        let summaries = model.stepSummaries
        var totals = [Double](repeating: 0, count: summaries.count)
        totals.withUnsafeMutableBufferPointer { profiled($0) }
        let perStep = totals.map { $0 / Double(iterations) }
        let all = max(perStep.reduce(0, +), 1e-9)
        func rate(_ macs: Int, _ ms: Double) -> Double { ms > 0 ? Double(macs) * 2 / (ms * 1e6) : 0 }
        var kinds: [(kind: String, ms: Double, macs: Int, steps: Int)] = []
        for (summary, ms) in zip(summaries, perStep) {
            if let k = kinds.firstIndex(where: { $0.kind == summary.kind }) {
                kinds[k].ms += ms; kinds[k].macs += summary.multiplyAccumulates; kinds[k].steps += 1
            } else {
                kinds.append((summary.kind, ms, summary.multiplyAccumulates, 1))
            }
        }
        print("profile: per operator kind (mean thread CPU ms per invocation)")
        for k in kinds.sorted(by: { $0.ms > $1.ms }) {
            print(String(format: "  %-26@ steps=%3d ms=%8.4f share=%5.1f%% mmacs=%8.2f gflops=%6.1f", k.kind as NSString, k.steps, k.ms, 100 * k.ms / all, Double(k.macs) / 1e6, rate(k.macs, k.ms)))
        }
        print("profile: per step")
        for (index, (summary, ms)) in zip(summaries, perStep).enumerated() {
            print(String(format: "  %3d %-26@ %-12@ ms=%8.4f share=%5.1f%% mmacs=%7.2f gflops=%6.1f %@", index, summary.kind as NSString, summary.shape as NSString, ms, 100 * ms / all, Double(summary.multiplyAccumulates) / 1e6, rate(summary.multiplyAccumulates, ms), summary.kernel as NSString))
        }
    }
}

extension FirstConvolution: ExpressibleByArgument {}
extension PointwiseConvolution: ExpressibleByArgument {}
#endif
