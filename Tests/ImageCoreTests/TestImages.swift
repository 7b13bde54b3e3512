import ImageCore

/// Small synthetic images for the ImageCore tests.
enum TestImages {
    /// A deterministic pseudo-random image (xorshift), different per seed.
    static func noise(width: Int, height: Int, seed: UInt32 = 0x1234_5678) -> RGBImage {
        var state = seed == 0 ? 1 : seed
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in pixels.indices {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            pixels[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Black image with one red marker pixel.
    static func marker(width: Int, height: Int, at x: Int, _ y: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        image.setPixel(x: x, y: y, to: RGBColor(r: 255, g: 0, b: 0))
        return image
    }

    /// Coordinates of every pixel that is not black.
    static func inkedPixels(_ image: RGBImage) -> [(x: Int, y: Int)] {
        var result: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y) != .black {
                result.append((x, y))
            }
        }
        return result
    }
}
