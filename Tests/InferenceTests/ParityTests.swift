import Foundation
import Inference
import Testing
import _TestSupport

/// The engine against ai-edge-litert 2.3.0 on all six models, random and photo inputs.
@Suite struct ParityTests {
    /// 2e-4 absolute; for the back model, whose logits reach ~1e3 (and whose intermediate
    /// values are as large), 1e-5 relative to the output tensor's largest magnitude when that is larger.
    static func tolerance(_ model: String, scale: Float) -> Float {
        model == "face_detection_back.tflite" ? max(2e-4, 1e-5 * scale) : 2e-4
    }

    /// Every kernel set this machine runs (`.avx512` needs AVX-512).
    static let widths = KernelSet.allCases.filter(\.isAvailable)

    @Test(arguments: ParityCase.all, widths)
    func matchesReference(_ parity: ParityCase, kernels: KernelSet) throws {
        let model = try Model(contentsOf: Fixtures.model(parity.model), kernels: kernels)
        #expect(model.kernels == kernels)
        let interpreter = try Interpreter(model: model)
        let input = try parity.input(count: model.inputs[0].elementCount)
        let outputs = try interpreter.run([input])
        try #require(outputs.count == parity.outputs.count)
        for (index, output) in outputs.enumerated() {
            let (stride, reference) = try parity.reference(index)
            try #require((reference.count - 1) * stride < output.count, "output \(index) is smaller than the reference")
            let tolerance = Self.tolerance(parity.model, scale: reference.map(abs).max() ?? 0)
            var worst: (error: Float, at: Int) = (0, 0)
            for (k, expected) in reference.enumerated() {
                let got = output[k * stride]
                let excess = abs(got - expected) - tolerance
                if !(excess <= worst.error) { worst = (excess.isNaN ? .infinity : excess, k * stride) }
            }
            #expect(worst.error <= 0, "output \(index) '\(model.outputs[index].name)': element \(worst.at) is \(output[worst.at]), reference \(reference[worst.at / stride]) (beyond tolerance by \(worst.error))")
        }
    }

    @Test func everyModelHasBothCases() {
        let models = Set(ParityCase.all.map(\.model))
        #expect(models.count == 6)
        #expect(ParityCase.all.count == 12)
    }

    /// Two interpreters sharing one model on different tasks agree with a single interpreter.
    @Test func interpretersShareOneModel() async throws {
        let model = try Model(contentsOf: Fixtures.model("iris_landmark.tflite"))
        let parity = try #require(ParityCase.all.first { $0.model == "iris_landmark.tflite" && $0.case == "random" })
        let input = try parity.input(count: model.inputs[0].elementCount)
        let expected = try Interpreter(model: model).run([input])
        let results = try await withThrowingTaskGroup(of: [[Float]].self) { group in
            for _ in 0..<4 {
                group.addTask { try Interpreter(model: model).run([input]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result == expected) }
    }
}
