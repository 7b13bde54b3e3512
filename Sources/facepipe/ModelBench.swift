import ArgumentParser
import Foundation
import Inference

/// `facepipe model bench MODEL [--iterations N]`: latency of one interpreter on one thread.
struct ModelBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time N invocations after a warm-up; the last line is median_ms=<value>."
    )

    @Argument(help: "The .tflite file.")
    var model: String

    @Option(help: "Timed invocations.")
    var iterations = 100

    @Option(help: "Untimed invocations first.")
    var warmup = 10

    @Option(name: .customLong("input"), help: "Raw float32 input files (default: seeded uniform values in [-1, 1)).")
    var inputs: [String] = []

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
            var times: [Double] = []
            times.reserveCapacity(iterations)
            let clock = ContinuousClock()
            for _ in 0..<iterations {
                let elapsed = clock.measure { interpreter.invoke() }
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
            times.sort()
            let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
            let mean = times.reduce(0, +) / Double(times.count)
            print("model=\((model as NSString).lastPathComponent) iterations=\(iterations) warmup=\(warmup) threads=1")
            print(String(format: "min_ms=%.4f mean_ms=%.4f max_ms=%.4f", times[0], mean, times[times.count - 1]))
            print(String(format: "gflops=%.1f", Double(prepared.statistics.multiplyAccumulates) * 2 / (median * 1e6)))
            print(String(format: "median_ms=%.4f", median))
        }
    }
}
