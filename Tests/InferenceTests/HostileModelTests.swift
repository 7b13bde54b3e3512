import Foundation
import Inference
import Testing
import _TestSupport

/// Malformed, hostile and unsupported files: every one is a thrown error, never a crash.
@Suite struct HostileModelTests {
    struct Mutation: CustomTestStringConvertible, Sendable {
        var name: String
        /// Words the error's description must contain.
        var expected: String
        var apply: @Sendable (inout TinyConvModel) -> Void
        var testDescription: String { name }
    }

    static let mutations: [Mutation] = [
        Mutation(name: "schema version 2", expected: "schema version 2") { $0.version = 2 },
        Mutation(name: "buffer index out of range", expected: "buffer of tensor 1 index 99") { $0.tensorBuffers[1] = 99 },
        Mutation(name: "operator input index out of range", expected: "input tensor of operator 0") { $0.operatorInputs[1] = 17 },
        Mutation(name: "negative operator output", expected: "output tensor of operator 0") { $0.operatorOutputs = [-5] },
        Mutation(name: "subgraph output out of range", expected: "subgraph output tensor index 4") { $0.subgraphOutputs = [4] },
        Mutation(name: "opcode index out of range", expected: "operator code of operator 0") { $0.opcodeIndex = 3 },
        Mutation(name: "unsupported operator", expected: "SOFTMAX") { $0.deprecatedCode = 25; $0.builtinCode = 25 },
        Mutation(name: "unknown operator code", expected: "BUILTIN_300") { $0.deprecatedCode = 127; $0.builtinCode = 300 },
        Mutation(name: "int8 input", expected: "INT8") { $0.inputType = 9 },
        Mutation(name: "undefined tensor type", expected: "type 77") { $0.inputType = 77 },
        Mutation(name: "weights channel mismatch", expected: "input channels") { $0.weightShape = [8, 1, 1, 4] },
        Mutation(name: "declared output shape mismatch", expected: "declared [1, 4, 4, 9]") { $0.outputShape = [1, 4, 4, 9] },
        Mutation(name: "weight bytes short", expected: "bytes for 64 FLOAT32") { $0.weightBytes = [UInt8](repeating: 0, count: 100) },
        Mutation(name: "bias size mismatch", expected: "bias") { $0.biasShape = [7] },
        Mutation(name: "negative dimension", expected: "dimension -3") { $0.inputShape = [1, -3, 4, 8] },
        Mutation(name: "huge shape", expected: "larger than") { $0.inputShape = [1, 65536, 65536, 8]; $0.outputShape = [1, 65536, 65536, 8] },
        Mutation(name: "zero stride", expected: "stride") { $0.stride = 0 },
        Mutation(name: "undefined padding", expected: "padding 7") { $0.padding = 7 },
        Mutation(name: "unsupported fused activation", expected: "TANH") { $0.activation = 4 },
        Mutation(name: "kernel larger than input", expected: "larger than the input") {
            $0.weightShape = [8, 5, 5, 8]; $0.weightBytes = [UInt8](repeating: 0, count: 8 * 25 * 8 * 4)
        },
        Mutation(name: "reads its own output", expected: "before any operator writes it") { $0.operatorInputs[0] = 3 },
        Mutation(name: "writes a constant", expected: "already written or constant") { $0.operatorOutputs = [1] },
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
            "\(error)".contains(mutation.expected)
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
        #expect { _ = try Model(bytes: bytes) } throws: { "\($0)".contains("truncated model") }
    }

    @Test func wrongInputSizeIsAnError() throws {
        let model = try Model(bytes: TinyConvModel().serialized())
        #expect { _ = try Interpreter(model: model).run([[1, 2, 3]]) } throws: { "\($0)".contains("needs 128 floats") }
        #expect { _ = try Interpreter(model: model).run([]) } throws: { "\($0)".contains("takes 1 inputs") }
    }
}
