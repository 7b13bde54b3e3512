import Foundation
import Inference
import TFLite
import Testing
import _TestSupport

/// Malformed, hostile and unsupported files: every one is a thrown error, never a crash.
@Suite struct HostileModelTests {
    /// The error a hostile file must raise: the reader's `ModelError` for a
    /// malformed file, the engine's `InferenceError` for one it cannot plan.
    enum Expected: Sendable {
        case model(ModelError)
        case engine(InferenceError)

        func matches(_ error: any Error) -> Bool {
            switch self {
            case let .model(expected): (error as? ModelError) == expected
            case let .engine(expected): (error as? InferenceError) == expected
            }
        }
    }

    struct Mutation: CustomTestStringConvertible, Sendable {
        var name: String
        var expected: Expected
        var apply: @Sendable (inout TinyConvModel) -> Void
        var testDescription: String { name }
    }

    static let input = TensorReference(index: 0, name: "input"), weights = TensorReference(index: 1, name: "weights")
    static let bias = TensorReference(index: 2, name: "bias"), output = TensorReference(index: 3, name: "output")

    /// The engine's error about TinyConvModel's operator (CONV_2D unless `code` says otherwise).
    static func inOperator(_ kind: InferenceError.Kind, code: BuiltinOperator = .conv2D) -> Expected {
        .engine(InferenceError(kind, operator: OperatorReference(index: 0, code: code)))
    }

    static let mutations: [Mutation] = [
        Mutation(name: "schema version 2", expected: .model(.unsupportedSchemaVersion(2))) { $0.version = 2 },
        Mutation(name: "buffer index out of range", expected: .model(.indexOutOfRange(what: "buffer of tensor 1", index: 99, count: 5))) {
            $0.tensorBuffers[1] = 99
        },
        Mutation(name: "operator input index out of range", expected: .model(.indexOutOfRange(what: "input tensor of operator 0 (CONV_2D)", index: 17, count: 4))) {
            $0.operatorInputs[1] = 17
        },
        Mutation(name: "negative operator output", expected: .model(.indexOutOfRange(what: "output tensor of operator 0 (CONV_2D)", index: -5, count: 4))) {
            $0.operatorOutputs = [-5]
        },
        Mutation(name: "subgraph output out of range", expected: .model(.indexOutOfRange(what: "subgraph output tensor", index: 4, count: 4))) {
            $0.subgraphOutputs = [4]
        },
        Mutation(name: "opcode index out of range", expected: .model(.indexOutOfRange(what: "operator code of operator 0", index: 3, count: 1))) {
            $0.opcodeIndex = 3
        },
        Mutation(name: "unsupported operator", expected: inOperator(.unsupportedOperator(.softmax), code: .softmax)) {
            $0.deprecatedCode = 25; $0.builtinCode = 25
        },
        Mutation(name: "unknown operator code",
                 expected: inOperator(.unsupportedOperator(BuiltinOperator(rawValue: 300)), code: BuiltinOperator(rawValue: 300))) {
            $0.deprecatedCode = 127; $0.builtinCode = 300
        },
        Mutation(name: "int8 input", expected: .engine(InferenceError(.inputType(input, .int8)))) { $0.inputType = 9 },
        Mutation(name: "undefined tensor type", expected: .model(.undefinedTensorType(tensor: 0, type: 77))) { $0.inputType = 77 },
        Mutation(name: "weights channel mismatch", expected: inOperator(.inputChannels(weights: weights, expected: 4, got: 8))) {
            $0.weightShape = [8, 1, 1, 4]
        },
        Mutation(name: "declared output shape mismatch", expected: inOperator(.outputShape(output, declared: [1, 4, 4, 9], inferred: [1, 4, 4, 8]))) {
            $0.outputShape = [1, 4, 4, 9]
        },
        Mutation(name: "weight bytes short", expected: .engine(InferenceError(.byteCount(weights, bytes: 100, values: 64, type: .float32)))) {
            $0.weightBytes = [UInt8](repeating: 0, count: 100)
        },
        Mutation(name: "bias size mismatch", expected: inOperator(.biasSize(bias, shape: [7], outputChannels: 8))) { $0.biasShape = [7] },
        Mutation(name: "negative dimension", expected: .model(.negativeDimension(tensor: 0, dimension: -3))) { $0.inputShape = [1, -3, 4, 8] },
        Mutation(name: "huge shape", expected: .engine(InferenceError(.tooManyElements(input, shape: [1, 65536, 65536, 8], limit: 1 << 28)))) {
            $0.inputShape = [1, 65536, 65536, 8]; $0.outputShape = [1, 65536, 65536, 8]
        },
        // 2^93 bias values: counting them must not overflow.
        Mutation(name: "bias shape past Int", expected: .engine(InferenceError(.tooManyElements(bias, shape: [Int(Int32.max), Int(Int32.max), Int(Int32.max)],
                                                                                           limit: 1 << 28)))) {
            $0.biasShape = [.max, .max, .max]
        },
        Mutation(name: "zero stride", expected: inOperator(.stride(height: 0, width: 0))) { $0.stride = 0 },
        Mutation(name: "undefined padding", expected: .model(.undefinedPadding(operator: "CONV_2D", value: 7))) { $0.padding = 7 },
        Mutation(name: "unsupported fused activation", expected: inOperator(.fusedActivation(.tanh))) { $0.activation = 4 },
        Mutation(name: "kernel larger than input", expected: inOperator(.kernelLargerThanInput(kernel: 5, input: 4))) {
            $0.weightShape = [8, 5, 5, 8]; $0.weightBytes = [UInt8](repeating: 0, count: 8 * 25 * 8 * 4)
        },
        Mutation(name: "reads its own output", expected: inOperator(.readsUnwritten(output))) { $0.operatorInputs[0] = 3 },
        Mutation(name: "writes a constant", expected: inOperator(.writesExisting(weights))) { $0.operatorOutputs = [1] },
    ]

    @Test func tinyModelComputesConvolution() throws {
        let tiny = TinyConvModel()
        let model = try Model(bytes: tiny.serialized())
        #expect(model.inputs == [TensorDescription(name: "input", shape: [1, 4, 4, 8])])
        #expect(model.outputs == [TensorDescription(name: "output", shape: [1, 4, 4, 8])])
        let input = (0..<128).map { Float($0 % 13) / 6 - 1 }
        let output = try Interpreter(model: model).run([input])[0]
        for pixel in 0..<16 {
            for o in 0..<8 {
                var expected = tiny.bias[o]
                for i in 0..<8 { expected += tiny.weights[o * 8 + i] * input[pixel * 8 + i] }
                #expect(abs(output[pixel * 8 + o] - expected) <= 1e-5, "pixel \(pixel) channel \(o)")
            }
        }
    }

    @Test(arguments: mutations)
    func hostileFieldIsAnError(_ mutation: Mutation) {
        var tiny = TinyConvModel()
        mutation.apply(&tiny)
        #expect {
            _ = try Model(bytes: tiny.serialized())
        } throws: { error in
            mutation.expected.matches(error)
        }
    }

    /// A real model cut at many lengths: each prefix is an error.
    @Test(arguments: [0, 1, 3, 4, 7, 8, 12, 16, 24, 32, 48, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096, 10_000, 50_000, 100_000, 150_000])
    func truncatedModelIsAnError(length: Int) throws {
        let bytes = try Fixtures.bytes(Fixtures.model("face_detection_short_range.tflite"))
        try #require(length < bytes.count)
        #expect(throws: (any Error).self) { _ = try Model(bytes: Array(bytes[..<length])) }
    }

    @Test(arguments: [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233])
    func truncatedModelTailIsAnError(missing: Int) throws {
        let bytes = try Fixtures.bytes(Fixtures.model("iris_landmark.tflite"))
        #expect(throws: (any Error).self) { _ = try Model(bytes: Array(bytes.dropLast(missing))) }
    }

    @Test(arguments: 0..<40)
    func randomBytesAreAnError(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        let count = Int(state % 5000) + seed
        var bytes = [UInt8](repeating: 0, count: count)
        for k in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[k] = UInt8(truncatingIfNeeded: state >> 56)
        }
        #expect(throws: (any Error).self) { _ = try Model(bytes: bytes) }
    }

    @Test(arguments: [UInt32(0xFFFF_FFF0), 0x7FFF_FFFF, 0xFFFF_FFFF, 3])
    func rootOffsetOutsideTheFileIsAnError(root: UInt32) throws {
        var bytes = try Fixtures.bytes(Fixtures.model("face_landmark.tflite"))
        withUnsafeBytes(of: root.littleEndian) { for k in 0..<4 { bytes[k] = $0[k] } }
        #expect(throws: (any Error).self) { _ = try Model(bytes: bytes) }
    }

    /// Overwrites 4-byte words of the flatbuffer's metadata (the first KiB holds the root
    /// table, vtables and offsets of the model's tables) with hostile values: each load either
    /// fails with an error or yields a model that still runs. It must never crash.
    @Test(arguments: [UInt32(0xFFFF_FFFF), 0x7FFF_FFFF, 0x0010_0000, 0])
    func mutatedOffsetsNeverCrash(value: UInt32) throws {
        let original = try Fixtures.bytes(Fixtures.model("iris_landmark.tflite"))
        var failures = 0
        for position in stride(from: 4, to: 1024, by: 4) {
            var bytes = original
            withUnsafeBytes(of: value.littleEndian) { for k in 0..<4 { bytes[position + k] = $0[k] } }
            do {
                let model = try Model(bytes: bytes)
                let interpreter = try Interpreter(model: model)
                interpreter.invoke()
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    @Test func vectorLongerThanTheFileIsAnError() throws {
        var tiny = TinyConvModel()
        tiny.weightBytes = [UInt8](repeating: 0, count: 256)
        var bytes = tiny.serialized()
        // The weight buffer's vector holds 256 zero bytes; its length word precedes them.
        var found: Int?
        for position in 4...(bytes.count - 256) where bytes[position - 4] == 0 && bytes[position - 3] == 1 && bytes[position - 2] == 0 {
            if bytes[position..<(position + 256)].allSatisfy({ $0 == 0 }) { found = position; break }
        }
        let start = try #require(found)
        bytes[start - 2] = 0x7F   // length 0x007F0100
        #expect { _ = try Model(bytes: bytes) } throws: { error in
            guard case .truncated? = error as? ModelError else { return false }
            return true
        }
    }

    @Test func wrongInputSizeIsAnError() throws {
        let model = try Model(bytes: TinyConvModel().serialized())
        #expect(throws: InferenceError(.inputSize(index: 0, name: "input", shape: [1, 4, 4, 8], got: 3))) {
            _ = try Interpreter(model: model).run([[1, 2, 3]])
        }
        #expect(throws: InferenceError(.inputCount(expected: 1, got: 0))) { _ = try Interpreter(model: model).run([]) }
    }
}
