/// An 8-bit sRGB colour for drawing and for constant warp borders.
public struct RGBColor: Sendable, Hashable, Codable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// A grey level: `r = g = b = level`.
    public init(gray level: UInt8) {
        self.init(r: level, g: level, b: level)
    }

    public static let black = RGBColor(r: 0, g: 0, b: 0)
    public static let white = RGBColor(r: 255, g: 255, b: 255)
    public static let red = RGBColor(r: 230, g: 40, b: 40)
    public static let green = RGBColor(r: 40, g: 200, b: 70)
    public static let blue = RGBColor(r: 40, g: 90, b: 230)
    public static let yellow = RGBColor(r: 250, g: 220, b: 40)
    public static let cyan = RGBColor(r: 40, g: 210, b: 230)
    public static let magenta = RGBColor(r: 220, g: 50, b: 200)
    public static let orange = RGBColor(r: 250, g: 140, b: 30)
    public static let gray = RGBColor(r: 128, g: 128, b: 128)
}

extension RGBImage {
    /// The colour of pixel (`x`, `y`), or `nil` outside the image.
    public func pixel(x: Int, y: Int) -> RGBColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 3
        return RGBColor(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }

    /// Sets pixel (`x`, `y`); coordinates outside the image are ignored.
    public mutating func setPixel(x: Int, y: Int, to color: RGBColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b
    }
}
