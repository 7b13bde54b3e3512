import ArgumentParser
import Foundation
import Inference

/// `facepipe-probes kernels`: every micro-kernel of every family's list
/// (`MicroKernelCatalogue`), in list order, with the time of the steps it
/// runs in a model: planned in each kernel set this machine has, in fp32
/// and with the int8 layers, and with each int8 kernel this CPU runs put
/// in place of the planned one. Prints "KERNEL family / name steps ms
/// gflops", or why a kernel did not run.
struct KernelTimings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernels",
        abstract: "Time of every micro-kernel of every family on a model's steps, in each kernel set and arithmetic this machine runs."
    )

    @Option(help: "The model.") var model = "models/face_detection_short_range.tflite"
    @Option(help: "The input as WIDTHxHEIGHT.") var inputSize = "384x384"
    @Option(help: "Profiled invocations per plan.") var iterations = 20

    func run() throws {
        let sides = inputSize.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ (1...4096).contains($0) }) else {
            throw ProbeFailure("--input-size takes WIDTHxHEIGHT with sides in 1…4096; got \(inputSize)")
        }
        let url = URL(fileURLWithPath: model)
        var timings = [String: (steps: Int, ms: Double, macs: Int)]()
        for set in KernelSet.allCases where set.isAvailable {
            let base = try Model(contentsOf: url, kernels: set)
            guard let input = base.inputs.first?.shape, input.count == 4 else { throw ProbeFailure("\(model) has no NHWC input") }
            let shape = [input[0], sides[1], sides[0], input[3]]
            var plans = [try base.resized(inputShape: shape)]
            if let int8 = try? base.resized(inputShape: shape, firstConvolution: .int8, pointwise: .int8) {
                plans.append(int8)
                plans += Int8ConvolutionKernel.all.filter(\.isRunnable).map { int8.replacingInt8Kernel(with: $0) }
                plans += Int8PointwiseKernel.all.filter(\.isRunnable).map { int8.replacingInt8PointwiseKernel(with: $0) }
            }
            for plan in plans { try profile(plan, into: &timings) }
        }
        for family in MicroKernelCatalogue.families { report(family, timings) }
    }

    /// Adds the steps of kernels not timed yet in `timings`.
    private func profile(_ plan: Model, into timings: inout [String: (steps: Int, ms: Double, macs: Int)]) throws {
        let interpreter = try Interpreter(model: plan)
        let summaries = plan.stepSummaries
        var totals = [Double](repeating: 0, count: summaries.count)
        totals.withUnsafeMutableBufferPointer { buffer in
            interpreter.invokeProfiled(accumulatingInto: buffer)  // warm-up
            for index in buffer.indices { buffer[index] = 0 }
            for _ in 0..<iterations { interpreter.invokeProfiled(accumulatingInto: buffer) }
        }
        var here = [String: (steps: Int, ms: Double, macs: Int)]()
        for (summary, total) in zip(summaries, totals) where !summary.kernel.isEmpty && timings[summary.kernel] == nil {
            here[summary.kernel, default: (0, 0, 0)].steps += 1
            here[summary.kernel, default: (0, 0, 0)].ms += total / Double(iterations)
            here[summary.kernel, default: (0, 0, 0)].macs += summary.multiplyAccumulates
        }
        timings.merge(here) { old, _ in old }
    }

    private func report<F: MicroKernelFamily>(_ family: F.Type, _ timings: [String: (steps: Int, ms: Double, macs: Int)]) {
        for kernel in F.all {
            let line: String
            if let t = timings[kernel.rawValue] {
                let gflops = t.ms > 0 ? Double(t.macs) * 2 / (t.ms * 1e6) : 0
                line = String(format: "steps=%3d ms=%8.4f gflops=%6.1f", t.steps, t.ms, gflops)
            } else if !kernel.isRunnable {
                line = "cannot run here (needs \(kernel.requiredFeatures.subtracting(.current)), or the \(kernel.kernelSet) set is unavailable)"
            } else {
                line = "not planned for \((model as NSString).lastPathComponent) at \(inputSize)"
            }
            print("KERNEL \(F.family) / \(kernel.rawValue.padding(toLength: 40, withPad: " ", startingAt: 0)) \(line)")
        }
    }
}
