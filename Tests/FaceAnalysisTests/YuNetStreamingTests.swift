import FaceAnalysis
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

    @Test(arguments: KernelSet.allCases.filter(\.isAvailable))
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
            let heads = Self.streamedHeads(streaming, input)
            for (head, output) in streaming.headOutputs.enumerated() {
                guard let output else { continue }
                #expect(heads[head].elementsEqual(expected[output]) { $0.bitPattern == $1.bitPattern },
                        "band \(band): output \(output) (\(model.outputs[output].shape))")
            }
        }
    }

    /// Each head's rows as streamed, joined in order (`RowStreamingTests`
    /// checks the bands' order and sizes).
    static func streamedHeads(_ streaming: RowStreamingInterpreter, _ input: [Float]) -> [[Float]] {
        let shape = streaming.model.inputs[0].shape, rowFloats = shape[2] * shape[3]
        var heads = streaming.heads.map { _ in [Float]() }
        streaming.run { rows, buffer in
            _ = buffer.update(fromContentsOf: input[(rows.lowerBound * rowFloats)..<(rows.upperBound * rowFloats)])
        } output: { head, _, values in
            heads[head].append(contentsOf: values)
        }
        return heads
    }
}
