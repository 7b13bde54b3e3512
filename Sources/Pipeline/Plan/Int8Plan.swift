import Inference

/// The convolutions of one model's plan that run in int8, as the planner
/// chose them (a step runs in int8 when its kernel is one of the int8
/// families, `Int8ConvolutionKernel`, `Int8PointwiseKernel`,
/// `QS8PointwiseKernel` or `QS8DepthwiseKernel`): what
/// `facepipe describe` says about a pipeline's arithmetic, so the text
/// follows the plan rather than prose written once.
package struct Int8Plan: Sendable, Equatable {
    /// The int8 steps of one kind (`CONV_2D 5x5/2`, `CONV_2D 1x1`).
    package struct Kind: Sendable, Equatable {
        package var kind: String
        package var count: Int

        package init(kind: String, count: Int) {
            self.kind = kind
            self.count = count
        }
    }

    /// The model file and where the plan runs.
    package var subject: String
    /// The convolutions (`CONV_2D`, `DEPTHWISE_CONV_2D`) in the plan.
    package var convolutions: Int
    /// The int8 convolutions by kind, kinds in plan order.
    package var int8: [Kind]

    /// The plan of `steps` (``Inference/Model/stepSummaries``).
    package init(subject: String, steps: [StepSummary]) {
        self.subject = subject
        convolutions = steps.filter { $0.kind.hasPrefix("CONV_2D") || $0.kind.hasPrefix("DEPTHWISE_CONV_2D") }.count
        var kinds: [Kind] = []
        for step in steps where Int8ConvolutionKernel(rawValue: step.kernel) != nil || Int8PointwiseKernel(rawValue: step.kernel) != nil
            || QS8PointwiseKernel(rawValue: step.kernel) != nil || QS8DepthwiseKernel(rawValue: step.kernel) != nil {
            if let index = kinds.firstIndex(where: { $0.kind == step.kind }) {
                kinds[index].count += 1
            } else {
                kinds.append(Kind(kind: step.kind, count: 1))
            }
        }
        int8 = kinds
    }

    /// Int8 convolutions in the plan.
    package var int8Count: Int { int8.reduce(0) { $0 + $1.count } }

    /// `SUBJECT: 17 of 39 convolutions in int8 (1 CONV_2D 5x5/2, 16 CONV_2D 1x1), the rest in fp32`.
    package var line: String {
        guard int8Count > 0 else { return "\(subject): every convolution in fp32" }
        let kinds = int8.map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        let rest = int8Count == convolutions ? "" : ", the rest in fp32"
        return "\(subject): \(int8Count) of \(convolutions) convolutions in int8 (\(kinds))\(rest)"
    }
}
