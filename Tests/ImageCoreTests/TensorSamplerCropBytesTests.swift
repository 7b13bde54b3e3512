import ImageCore
import Testing
import _TestSupport

/// `TensorSampler.cropBytes` is the byte form of `crop(…, 2/255, −1)`:
/// every byte maps to the float canvas's value, black (0 ↔ −1) outside the image.
struct TensorSamplerCropBytesTests {
    /// Rectangles (x, y, width, height) inside, across every edge and wholly outside a 13×9 image.
    static let rectangles = [(0, 0, 13, 9), (2, 3, 5, 4), (-3, -2, 8, 6), (9, 6, 10, 7), (-4, 1, 22, 3), (20, 0, 4, 4), (0, -5, 3, 3)]

    @Test(arguments: rectangles)
    func bytesAreTheFloatCanvas(_ rectangle: (Int, Int, Int, Int)) {
        let (x, y, width, height) = rectangle
        var generator = SplitMix64(seed: 9)
        let image = RGBImage(width: 13, height: 9, pixels: (0..<(13 * 9 * 3)).map { _ in UInt8(generator.next() >> 56) | 1 })
        var floats = [Float](repeating: .nan, count: width * height * 3)
        var bytes = [UInt8](repeating: 7, count: width * height * 3)
        floats.withUnsafeMutableBufferPointer {
            TensorSampler.crop(image, x: x, y: y, width: width, height: height, valueScale: 2 / 255, valueOffset: -1, into: $0)
        }
        bytes.withUnsafeMutableBufferPointer { TensorSampler.cropBytes(image, x: x, y: y, width: width, height: height, into: $0) }
        #expect(bytes.map { Float($0) * (2 / 255) - 1 } == floats)
        let inside = max(0, min(13, x + width) - max(0, x)) * max(0, min(9, y + height) - max(0, y))
        #expect(bytes.filter { $0 == 0 }.count == bytes.count - inside * 3, "zeros exactly outside (the image has none)")
    }
}
