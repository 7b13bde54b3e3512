import Inference
import Testing
import _TestSupport

/// YuNet-s streamed by rows (`RowStreamingInterpreter`, as `YuNetDetector`
/// runs it): its top-down neck's nearest-neighbour 2× upsampling is a
/// row-wise step, so each of the three level outputs is streamed, and
/// each carries the whole-tensor `Interpreter`'s bits, for bands of any
/// size (odd bands start upsampled windows on odd rows) and either kernel set.
@Suite struct YuNetStreamingTests {
    static func model(height: Int, width: Int, kernels: KernelSet) throws -> Model {
        let weights = try YuNetWeights(bytes: YuNetWeightsTests.encode(YuNetWeightsTests.arrays()), file: YuNetWeightsTests.file)
        return try YuNetGraph.model(weights, height: height, width: width, kernels: kernels)
    }

    @Test(arguments: ParityTests.widths)
    func everyOutputStreamsWithTheWholeRunsBits(kernels: KernelSet) throws {
        let model = try Self.model(height: 160, width: 96, kernels: kernels)
        #expect(model.inputs[0].shape == [1, 162, 98, 3], "the picture with its one-pixel zero border")
        let whole = try Interpreter(model: model)
        var generator = SplitMix64(seed: 37)
        let b = YuNetGraph.border
        // BGR 0…255 inside the zero border, as the detector writes it.
        var input = [Float](repeating: 0, count: model.inputs[0].elementCount)
        for y in b..<(162 - b) { for x in b..<(98 - b) { for c in 0..<3 { input[(y * 98 + x) * 3 + c] = (generator.unitFloat() * 255).rounded() } } }
        let expected = try whole.run([input])
        for band in [5, 32] {
            let streaming = try RowStreamingInterpreter(model: model, bandRows: band)
            #expect(streaming.headOutputs.count == 3 && Set(streaming.headOutputs.compactMap { $0 }) == Set(0..<3),
                    "band \(band): heads \(streaming.headOutputs) are not the three outputs")
            let heads = try RowStreamingTests.stream(streaming, input)
            for (head, output) in streaming.headOutputs.enumerated() {
                guard let output else { continue }
                #expect(RowStreamingTests.firstDifference(heads[head], expected[output]) == nil,
                        "band \(band): output \(output) (\(model.outputs[output].shape))")
            }
        }
    }

    /// A nearest-neighbour resize by a factor that is not a power of two
    /// (or with half-pixel centres) is not row-wise.
    @Test func onlyPowerOfTwoHeightFactorsStream() throws {
        let doubled = try ResizeNearestNeighborTests.model(.init(inHeight: 3, inWidth: 5, channels: 4, outHeight: 6, outWidth: 10))
        #expect(try RowStreamingInterpreter(model: doubled, bandRows: 1).headOutputs == [0])
        for c in [ResizeNearestNeighborTests.Case(inHeight: 3, inWidth: 4, channels: 5, outHeight: 9, outWidth: 7),
                  ResizeNearestNeighborTests.Case(inHeight: 4, inWidth: 3, channels: 7, outHeight: 8, outWidth: 6, halfPixelCenters: true)] {
            #expect(throws: InferenceError(.nothingStreamed), "\(c)") { try RowStreamingInterpreter(model: try ResizeNearestNeighborTests.model(c)) }
        }
    }
}
