import Inference
import TFLite
import Testing
import _TestSupport

/// RESIZE_NEAREST_NEIGHBOR against a scalar reference of TFLite's rule:
/// source = min(floor((dst + o)·in/out), in − 1), o = 0.5 with
/// half_pixel_centers; with align_corners round((dst)·(in − 1)/(out − 1)).
@Suite struct ResizeNearestNeighborTests {
    struct Case: Sendable, CustomStringConvertible {
        var inHeight: Int, inWidth: Int, channels: Int, outHeight: Int, outWidth: Int
        var alignCorners = false, halfPixelCenters = false
        var description: String {
            "\(inHeight)x\(inWidth)x\(channels)→\(outHeight)x\(outWidth) ac=\(alignCorners) hpc=\(halfPixelCenters)"
        }
    }

    static let cases: [Case] = [
        Case(inHeight: 1, inWidth: 1, channels: 64, outHeight: 2, outWidth: 2),  // YuNet's stride-32 map
        Case(inHeight: 3, inWidth: 5, channels: 64, outHeight: 6, outWidth: 10),
        Case(inHeight: 4, inWidth: 3, channels: 7, outHeight: 8, outWidth: 6, halfPixelCenters: true),
        Case(inHeight: 3, inWidth: 4, channels: 5, outHeight: 5, outWidth: 7),
        Case(inHeight: 3, inWidth: 4, channels: 5, outHeight: 5, outWidth: 7, halfPixelCenters: true),
        Case(inHeight: 3, inWidth: 4, channels: 5, outHeight: 5, outWidth: 7, alignCorners: true),
        Case(inHeight: 6, inWidth: 6, channels: 3, outHeight: 4, outWidth: 3),  // downscale
    ]

    /// A one-operator model built in code (`TFLiteModel(subgraphs:bytes:buffers:)`).
    static func model(_ c: Case) throws -> Model {
        var size: [UInt8] = []
        for value in [Int32(c.outHeight), Int32(c.outWidth)] { withUnsafeBytes(of: value.littleEndian) { size += $0 } }
        let tensors = [
            TFLiteTensor(name: "input", shape: [1, c.inHeight, c.inWidth, c.channels], type: .float32, buffer: 0),
            TFLiteTensor(name: "size", shape: [2], type: .int32, buffer: 1),
            TFLiteTensor(name: "output", shape: [1, c.outHeight, c.outWidth, c.channels], type: .float32, buffer: 0),
        ]
        let op = TFLiteOperator(code: .resizeNearestNeighbor, inputs: [0, 1], outputs: [2],
                                options: .resizeNearestNeighbor(alignCorners: c.alignCorners, halfPixelCenters: c.halfPixelCenters))
        let graph = TFLiteSubgraph(name: "resize", tensors: tensors, inputs: [0], outputs: [2], operators: [op])
        return try Model(file: try TFLiteModel(subgraphs: [graph], bytes: size, buffers: [0..<0, 0..<8]))
    }

    /// TFLite's reference rule, in Double and scalar loops.
    static func reference(_ c: Case, _ input: [Float]) -> [Float] {
        func source(_ index: Int, _ inSize: Int, _ outSize: Int) -> Int {
            let scale = c.alignCorners && outSize > 1 ? Double(inSize - 1) / Double(outSize - 1) : Double(inSize) / Double(outSize)
            let value = (Double(index) + (c.halfPixelCenters ? 0.5 : 0)) * scale
            let rounded = c.alignCorners ? value.rounded() : value.rounded(.down)
            return max(0, min(Int(rounded), inSize - 1))
        }
        var output: [Float] = []
        for y in 0..<c.outHeight {
            for x in 0..<c.outWidth {
                let sy = source(y, c.inHeight, c.outHeight), sx = source(x, c.inWidth, c.outWidth)
                for ch in 0..<c.channels { output.append(input[(sy * c.inWidth + sx) * c.channels + ch]) }
            }
        }
        return output
    }

    @Test(arguments: cases)
    func copiesTheReferencesSourcePixel(_ c: Case) throws {
        var generator = SplitMix64(seed: UInt64(c.inHeight * 100 + c.outWidth))
        let input = (0..<(c.inHeight * c.inWidth * c.channels)).map { _ in generator.unitFloat() * 4 - 2 }
        let model = try Self.model(c)
        #expect(model.stepSummaries.map(\.kind) == ["RESIZE_NEAREST_NEIGHBOR"])
        let output = try Interpreter(model: model).run([input])[0]
        #expect(output == Self.reference(c, input))
    }

    /// Planned at another input size, the declared 2× factor is kept (YuNet
    /// declares its graph at 32×32 and resizes it to each picture).
    @Test func aResizedPlanKeepsTheDeclaredFactor() throws {
        let small = Case(inHeight: 1, inWidth: 1, channels: 8, outHeight: 2, outWidth: 2)
        let resized = try Self.model(small).resized(inputShape: [1, 3, 5, 8])
        #expect(resized.outputs[0].shape == [1, 6, 10, 8])
        let input = (0..<(3 * 5 * 8)).map(Float.init)
        let output = try Interpreter(model: resized).run([input])[0]
        #expect(output == Self.reference(Case(inHeight: 3, inWidth: 5, channels: 8, outHeight: 6, outWidth: 10), input))
    }
}

/// A model declared in code is checked like a parsed file.
@Suite struct DeclaredModelTests {
    @Test func aBufferPastTheBytesIsRefused() {
        let graph = TFLiteSubgraph(name: "g", tensors: [TFLiteTensor(name: "x", shape: [1], type: .float32, buffer: 1)],
                                   inputs: [0], outputs: [0], operators: [])
        #expect(throws: ModelError.truncated(what: "data of buffer 1", offset: 0, fileSize: 4)) {
            try TFLiteModel(subgraphs: [graph], bytes: [0, 0, 0, 0], buffers: [0..<0, 0..<8])
        }
    }

    @Test func aTensorIndexOutOfRangeIsRefused() {
        let graph = TFLiteSubgraph(name: "g", tensors: [TFLiteTensor(name: "x", shape: [1], type: .float32, buffer: 0)],
                                   inputs: [0], outputs: [3], operators: [])
        #expect(throws: ModelError.indexOutOfRange(what: "subgraph output tensor", index: 3, count: 1)) {
            try TFLiteModel(subgraphs: [graph], bytes: [], buffers: [0..<0])
        }
    }
}
