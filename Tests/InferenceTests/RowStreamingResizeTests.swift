import Inference
import Testing

/// Which nearest-neighbour resizes `RowStreamingInterpreter` streams.
@Suite struct RowStreamingResizeTests {
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
