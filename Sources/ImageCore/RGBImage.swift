/// An 8-bit RGB image, rows top to bottom, pixels interleaved `R G B`.
///
/// The one pixel container every stage exchanges. Value semantics: copies
/// share storage until one of them writes (Array's copy-on-write).
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, row stride `width * 3`.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3,
                     "RGBImage: \(pixels.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A black (or `fill`-coloured) image.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        precondition(width >= 0 && height >= 0)
        var pixels = [UInt8](hugePageBacked: width * height * 3) { $0.initialize(repeating: 0) }
        if fill != (0, 0, 0) {
            for i in stride(from: 0, to: pixels.count, by: 3) {
                pixels[i] = fill.0; pixels[i + 1] = fill.1; pixels[i + 2] = fill.2
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var pixelCount: Int { width * height }
}
