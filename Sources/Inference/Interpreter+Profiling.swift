import Foundation

/// What one plan step is, for per-step timing reports.
public struct StepSummary: Sendable {
    /// Operator kind, e.g. `CONV_2D 3x3/2`, `CONV_2D 1x1`, `DEPTHWISE_CONV_2D 5x5/1`, `PAD`.
    public var kind: String
    /// Output shape as `HxWxC` (or element count for flat steps).
    public var shape: String
    /// Multiply-accumulates of the step (0 for data movement).
    public var multiplyAccumulates: Int
    /// The micro-kernel the planner chose, e.g. `conv1x1_8x32_avx512` ("" for steps without a choice).
    public var kernel = ""
}

extension Step {
    var summary: StepSummary {
        func window(_ name: String, _ g: WindowGeometry, macsPerOutput: Int) -> StepSummary {
            let fused = g.isPointwise ? "1x1" : "\(g.kernelHeight)x\(g.kernelWidth)/\(g.strideHeight)"
            return StepSummary(
                kind: "\(name) \(fused)", shape: "\(g.outHeight)x\(g.outWidth)x\(g.outChannels)",
                multiplyAccumulates: g.outHeight * g.outWidth * g.outChannels * macsPerOutput)
        }
        switch self {
        case let .convolution(s):
            var summary = window("CONV_2D", s.geometry, macsPerOutput: s.geometry.kernelHeight * s.geometry.kernelWidth * s.geometry.inChannels)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .int8Convolution(s):
            var summary = window("CONV_2D", s.geometry, macsPerOutput: s.geometry.kernelHeight * s.geometry.kernelWidth * s.geometry.inChannels)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .int8Pointwise(s):
            var summary = window("CONV_2D", s.geometry, macsPerOutput: s.geometry.inChannels)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .depthwise(s):
            var summary = window("DEPTHWISE_CONV_2D", s.geometry, macsPerOutput: s.geometry.kernelHeight * s.geometry.kernelWidth)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .qs8Pointwise(s):
            var summary = window("CONV_2D", s.geometry, macsPerOutput: s.geometry.inChannels)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .qs8Depthwise(s):
            var summary = window("DEPTHWISE_CONV_2D", s.geometry, macsPerOutput: 9)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .qs8MaxPool(s):
            var summary = window("MAX_POOL_2D", s.geometry, macsPerOutput: 0)
            summary.kernel = "qs8_maxpool2x2"
            return summary
        case let .qs8Add(s): return StepSummary(kind: "ADD", shape: "\(s.count)", multiplyAccumulates: 0, kernel: "qs8_add")
        case let .qs8Quantize(s): return StepSummary(kind: "QUANTIZE", shape: "\(s.count)", multiplyAccumulates: 0, kernel: "qs8_quantize")
        case let .maxPool(s):
            var summary = window("MAX_POOL_2D", s.geometry, macsPerOutput: 0)
            summary.kernel = s.kernel.rawValue
            return summary
        case let .add(s): return StepSummary(kind: "ADD", shape: "\(s.count)", multiplyAccumulates: 0)
        case let .activation(s): return StepSummary(kind: "ACTIVATION", shape: "\(s.count)", multiplyAccumulates: 0)
        case let .pad(s):
            return StepSummary(kind: "PAD", shape: "\(s.outShape.1)x\(s.outShape.2)x\(s.outShape.3)", multiplyAccumulates: 0)
        case let .copy(s): return StepSummary(kind: "COPY", shape: "\(s.count)", multiplyAccumulates: 0)
        case let .concatenation(s): return StepSummary(kind: "CONCATENATION", shape: "\(s.outer)x\(s.inputs.count)", multiplyAccumulates: 0)
        case let .resizeBilinear(s):
            return StepSummary(kind: "RESIZE_BILINEAR", shape: "\(s.outHeight)x\(s.outWidth)x\(s.channels)", multiplyAccumulates: 0)
        case let .resizeNearestNeighbor(s):
            return StepSummary(kind: "RESIZE_NEAREST_NEIGHBOR", shape: "\(s.outHeight)x\(s.outWidth)x\(s.channels)", multiplyAccumulates: 0)
        case let .depthToSpace(s):
            return StepSummary(kind: "DEPTH_TO_SPACE", shape: "\(s.inHeight * s.block)x\(s.inWidth * s.block)x\(s.inChannels / (s.block * s.block))", multiplyAccumulates: 0)
        }
    }
}

extension Model {
    /// One summary per executable step, in execution order (fused operators count as one step).
    public var stepSummaries: [StepSummary] { plan.steps.map(\.summary) }
}

// Per-step timing for `facepipe model bench` and the kernel probe: compiled
// only with FACEPIPE_BENCHMARKS set (Package.swift, Benchmarks), so the
// shipped binary does not carry it.
#if FACEPIPE_BENCHMARKS
extension Interpreter {
    /// Runs every step like `invoke()`, adding each step's thread CPU time in
    /// milliseconds to `milliseconds[step]`. `milliseconds` must hold one entry
    /// per step (`model.stepSummaries.count`). Allocates nothing.
    public func invokeProfiled(accumulatingInto milliseconds: UnsafeMutableBufferPointer<Double>) {
        precondition(milliseconds.count == model.plan.steps.count, "need one timing slot per step (\(model.plan.steps.count)), got \(milliseconds.count)")
        for index in model.plan.steps.indices {
            let start = threadCPUNanoseconds()
            invokeStep(index)
            milliseconds[index] += Double(threadCPUNanoseconds() - start) / 1e6
        }
    }
}
#endif
