import TFLite
import Testing
import _TestSupport

@Suite struct TFLiteModelTests {
    struct CodeCase: CustomTestStringConvertible, Sendable {
        var deprecated: Int8
        var extended: Int32
        var expected: String
        var testDescription: String { "\(deprecated)/\(extended) → \(expected)" }
    }

    /// The operator code is the larger of `deprecated_builtin_code` and `builtin_code`.
    @Test(arguments: [
        CodeCase(deprecated: 3, extended: 0, expected: "CONV_2D"),
        CodeCase(deprecated: 3, extended: 3, expected: "CONV_2D"),
        CodeCase(deprecated: 127, extended: 124, expected: "BUILTIN_127"),
        CodeCase(deprecated: 0, extended: 124, expected: "DENSIFY"),
        CodeCase(deprecated: 127, extended: 150, expected: "BUILTIN_150"),
    ])
    func operatorCodeUsesTheLargerField(_ code: CodeCase) throws {
        var tiny = TinyConvModel()
        tiny.deprecatedCode = code.deprecated
        tiny.builtinCode = code.extended
        let model = try TFLiteModel(bytes: tiny.serialized())
        #expect(model.subgraphs[0].operators[0].code.name == code.expected)
    }

    @Test func readsTheTinyModel() throws {
        let model = try TFLiteModel(bytes: TinyConvModel().serialized())
        #expect(model.version == 3)
        #expect(model.description == "tiny")
        let graph = try #require(model.subgraphs.first)
        #expect(graph.name == "main")
        #expect(graph.tensors.map(\.name) == ["input", "weights", "bias", "output"])
        #expect(graph.tensors[1].shape == [8, 1, 1, 8])
        #expect(model.data(ofBuffer: graph.tensors[1].buffer).count == 256)
        guard case let .convolution(options) = graph.operators[0].options else {
            Issue.record("expected convolution options, got \(graph.operators[0].options)")
            return
        }
        #expect(options.padding == .valid && options.strideWidth == 1 && options.strideHeight == 1)
        #expect(options.dilationWidth == 1 && options.depthMultiplier == 1 && options.activation == FusedActivation.none)
    }

    struct RealModel: Sendable, CustomTestStringConvertible {
        var file: String
        var operators: Int
        var inputs: [[Int]]
        var testDescription: String { file }
    }

    @Test(arguments: [
        RealModel(file: "face_detection_short_range.tflite", operators: 164, inputs: [[1, 128, 128, 3]]),
        RealModel(file: "face_detection_full_range_sparse.tflite", operators: 388, inputs: [[1, 192, 192, 3]]),
        RealModel(file: "face_landmark.tflite", operators: 97, inputs: [[1, 192, 192, 3]]),
    ])
    func readsRealModels(_ real: RealModel) throws {
        let model = try TFLiteModel(bytes: Fixtures.bytes(Fixtures.model(real.file)))
        let graph = try #require(model.subgraphs.first)
        #expect(graph.operators.count == real.operators)
        #expect(graph.inputs.map { graph.tensors[$0].shape } == real.inputs)
    }

    @Test func sparseWeightsCarryCSRMetadata() throws {
        let model = try TFLiteModel(bytes: Fixtures.bytes(Fixtures.model("face_detection_full_range_sparse.tflite")))
        let sparse = model.subgraphs[0].tensors.compactMap(\.sparsity)
        #expect(sparse.count == 46)
        for sparsity in sparse {
            #expect(sparsity.dimensions.contains { if case .sparseCSR = $0 { true } else { false } })
        }
    }
}
