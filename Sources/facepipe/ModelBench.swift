import ArgumentParser
import Foundation
import Inference

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

    @Option(name: .customLong("input"), help: "Raw float32 input files (default: seeded uniform values in [-1, 1)).")
    var inputs: [String] = []

    static func threadCPUMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }

    func run() throws {
        try ModelCommandSupport.guarded {
            guard iterations >= 1, iterations <= 1_000_000, warmup >= 0, warmup <= 1_000_000 else {
                throw InferenceError("--iterations must be in 1…1000000 and --warmup in 0…1000000")
            }
            let prepared = try ModelCommandSupport.loadModel(model)
            let interpreter = try Interpreter(model: prepared)
            if inputs.isEmpty {
                var state: UInt64 = 0x5EED
                for index in prepared.inputs.indices {
                    interpreter.withInput(index) { buffer in
                        for k in buffer.indices {
                            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                            buffer[k] = Float(state >> 40) / 8_388_608 - 1
                        }
                    }
                }
            } else {
                guard inputs.count == prepared.inputs.count else {
                    throw InferenceError("the model has \(prepared.inputs.count) input(s); got \(inputs.count) --input")
                }
                for (index, path) in inputs.enumerated() {
                    let values = try ModelCommandSupport.readTensor(path, for: prepared.inputs[index], index: index)
                    interpreter.withInput(index) { _ = $0.update(from: values) }
                }
            }
            for _ in 0..<warmup { interpreter.invoke() }
            var times: [Double] = [], cpuTimes: [Double] = []
            times.reserveCapacity(iterations)
            cpuTimes.reserveCapacity(iterations)
            let clock = ContinuousClock()
            for _ in 0..<iterations {
                let cpuStart = Self.threadCPUMilliseconds()
                let elapsed = clock.measure { interpreter.invoke() }
                cpuTimes.append(Self.threadCPUMilliseconds() - cpuStart)
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
            times.sort()
            cpuTimes.sort()
            func middle(_ sorted: [Double]) -> Double {
                sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
            let median = middle(times)
            let mean = times.reduce(0, +) / Double(times.count)
            print("model=\((model as NSString).lastPathComponent) iterations=\(iterations) warmup=\(warmup) threads=1")
            print(String(format: "min_ms=%.4f mean_ms=%.4f max_ms=%.4f", times[0], mean, times[times.count - 1]))
            print(String(format: "gflops=%.1f", Double(prepared.statistics.multiplyAccumulates) * 2 / (median * 1e6)))
            // CPU time of this thread: what the invocation cost, without time spent waiting for a core.
            print(String(format: "cpu_median_ms=%.4f", middle(cpuTimes)))
            print(String(format: "median_ms=%.4f", median))
        }
    }
}
