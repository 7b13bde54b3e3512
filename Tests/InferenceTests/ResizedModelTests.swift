import Foundation
import Inference
import TFLite
import Testing
import _TestSupport

/// One entry of Tests/Fixtures/inference/resized/cases.json
/// (scripts/fixtures/resized_inference_reference.py).
struct ResizedCase: Decodable, CustomTestStringConvertible, Sendable {
    var model: String
    var inputShape: [Int]
    var seed: UInt64
    var outputs: [String]

    var testDescription: String { "\(model) at \(inputShape[1])×\(inputShape[2])" }

    static let all: [ResizedCase] = {
        guard let data = try? Data(contentsOf: Fixtures.url("inference/resized/cases.json")),
              let cases = try? JSONDecoder().decode([ResizedCase].self, from: data)
        else { return [] }
        return cases
    }()

    /// Reference samples of output `index`: (stride, values at flat indices 0, stride, …).
    func reference(_ index: Int) throws -> (stride: Int, values: [Float]) {
        try SampledReference.read("inference/resized/\(outputs[index])")
    }
}

/// Planning a model at another input size, against ai-edge-litert on the same resized network.
@Suite struct ResizedModelTests {
    @Test func fixturesCoverTwoShapes() {
        #expect(ResizedCase.all.count == 2)
    }

    @Test(arguments: ResizedCase.all, ParityTests.widths)
    func resizedFullRangeMatchesReference(_ resized: ResizedCase, kernels: KernelSet) throws {
        let declared = try Model(contentsOf: Fixtures.model(resized.model), kernels: kernels)
        let model = try declared.resized(inputShape: resized.inputShape)
        #expect(model.kernels == kernels)
        let cells = resized.inputShape[1] / 4 * (resized.inputShape[2] / 4)
        #expect(model.inputs[0].shape == resized.inputShape)
        #expect(model.outputs.map(\.shape) == [[1, cells, 16], [1, cells, 1]])
        var generator = SplitMix64(seed: resized.seed)
        let input = (0..<model.inputs[0].elementCount).map { _ in generator.unitFloat() * 2 - 1 }
        let outputs = try Interpreter(model: model).run([input])
        for (index, output) in outputs.enumerated() {
            let (stride, reference) = try resized.reference(index)
            try #require((reference.count - 1) * stride < output.count && reference.count == (output.count + stride - 1) / stride,
                         "output \(index) has \(output.count) values; the reference samples \(reference.count) at stride \(stride)")
            var worst: (error: Float, at: Int) = (0, 0)
            for (k, expected) in reference.enumerated() {
                let error = abs(output[k * stride] - expected)
                if !(error <= worst.error) { worst = (error.isNaN ? .infinity : error, k * stride) }
            }
            #expect(worst.error <= 2e-4, "output \(index): element \(worst.at) is \(output[worst.at]), reference \(reference[worst.at / stride])")
        }
    }

    /// Planning at the declared shape through either entry point gives the same numbers.
    @Test func resizingToTheDeclaredShapeChangesNothing() throws {
        let url = Fixtures.model("face_detection_full_range.tflite")
        let declared = try Model(contentsOf: url)
        let same = try declared.resized(inputShape: [1, 192, 192, 3])
        let viaInit = try Model(contentsOf: url, inputShape: [1, 192, 192, 3])
        var generator = SplitMix64(seed: 7)
        let input = (0..<192 * 192 * 3).map { _ in generator.unitFloat() * 2 - 1 }
        let expected = try Interpreter(model: declared).run([input])
        #expect(try Interpreter(model: same).run([input]) == expected)
        #expect(try Interpreter(model: viaInit).run([input]) == expected)
    }

    /// A resized plan run on the top-left 192×192 of a larger input sees the
    /// same receptive fields away from the right and bottom borders.
    @Test func interpreterSwitchesBetweenSizesWithoutStaleState() throws {
        let declared = try Model(contentsOf: Fixtures.model("face_detection_full_range.tflite"))
        let large = try declared.resized(inputShape: [1, 256, 320, 3])
        var generator = SplitMix64(seed: 11)
        let smallInput = (0..<192 * 192 * 3).map { _ in generator.unitFloat() * 2 - 1 }
        let largeInput = (0..<256 * 320 * 3).map { _ in generator.unitFloat() * 2 - 1 }
        let interpreter = try Interpreter(model: declared)
        let smallFirst = try interpreter.run([smallInput])
        try interpreter.switchModel(to: large)
        let largeAfterSwitch = try interpreter.run([largeInput])
        try interpreter.switchModel(to: declared)
        #expect(try interpreter.run([smallInput]) == smallFirst)
        #expect(try Interpreter(model: large).run([largeInput]) == largeAfterSwitch)
        let largeArena = try Interpreter(model: large).arenaFloatCount
        #expect(interpreter.arenaFloatCount >= largeArena)
    }

    struct Unplannable: Sendable, CustomTestStringConvertible {
        var model: String
        var shape: [Int]
        /// The operator that refuses the shape (nil: the requested shape itself is refused).
        var code: BuiltinOperator?
        /// Whether the error's kind is the expected one.
        var kind: @Sendable (InferenceError.Kind) -> Bool
        var testDescription: String { "\(model) at \(shape)" }
    }

    static let operandShapesDiffer: @Sendable (InferenceError.Kind) -> Bool = { if case .operandShapes = $0 { true } else { false } }
    static let fullRangeInput = [1, 192, 192, 3]

    static let unplannable = [
        // 200 = 8·25: the maps shrink to 7 (odd), so the 2× upsampled branch (14) no longer matches 13.
        Unplannable(model: "face_detection_full_range.tflite", shape: [1, 200, 200, 3], code: .add, kind: operandShapesDiffer),
        Unplannable(model: "face_detection_full_range.tflite", shape: [1, 192, 208, 3], code: .add, kind: operandShapesDiffer),
        Unplannable(model: "face_detection_full_range.tflite", shape: [1, 384, 384, 4], code: nil) {
            $0 == .resizeShape(declared: fullRangeInput, requested: [1, 384, 384, 4])
        },
        Unplannable(model: "face_detection_full_range.tflite", shape: [2, 384, 384, 3], code: nil) {
            $0 == .resizeShape(declared: fullRangeInput, requested: [2, 384, 384, 3])
        },
        Unplannable(model: "face_detection_full_range.tflite", shape: [1, 384, 3], code: nil) {
            if case .resizeNeedsImage(_, fullRangeInput, [1, 384, 3]) = $0 { true } else { false }
        },
        Unplannable(model: "face_detection_full_range.tflite", shape: [1, 0, 384, 3], code: nil) {
            $0 == .resizeShape(declared: fullRangeInput, requested: [1, 0, 384, 3])
        },
        // Short range ends in RESHAPEs of two maps of different strides; fine at 256.
        // face_landmark at 96 px: its residual branches no longer line up.
        Unplannable(model: "face_landmark.tflite", shape: [1, 96, 96, 3], code: .add, kind: operandShapesDiffer),
    ]

    @Test(arguments: unplannable)
    func sizeTheGraphCannotTakeIsAClearError(_ c: Unplannable) throws {
        let model = try Model(contentsOf: Fixtures.model(c.model))
        let error = try #require(throws: InferenceError.self) { try model.resized(inputShape: c.shape) }
        #expect(c.kind(error.kind), "\(error)")
        #expect(error.operator?.code == c.code, "\(error)")
        // An operator's refusal says at which shape it was planned; a refused shape is the error itself.
        #expect(error.inputShape == (c.code == nil ? nil : c.shape), "\(error)")
    }

    @Test func shortRangePlansAtAnotherSize() throws {
        let model = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite")).resized(inputShape: [1, 256, 256, 3])
        // 32×32·2 + 16×16·6 anchors.
        #expect(model.outputs.map(\.elementCount).sorted() == [3584, 3584 * 16])
    }
}
