/// The eight values of the EXIF/TIFF Orientation tag (0x0112): how the stored
/// pixels must be transformed to appear upright. Names say where the stored
/// row 0 and column 0 lie (TIFF 6.0 wording).
public enum ExifOrientation: Int, Sendable, Codable, CaseIterable {
    /// Row 0 top, column 0 left: already upright.
    case topLeft = 1
    /// Row 0 top, column 0 right: mirrored horizontally.
    case topRight = 2
    /// Row 0 bottom, column 0 right: rotated 180°.
    case bottomRight = 3
    /// Row 0 bottom, column 0 left: mirrored vertically.
    case bottomLeft = 4
    /// Row 0 left, column 0 top: transposed.
    case leftTop = 5
    /// Row 0 right, column 0 top: needs 90° clockwise rotation.
    case rightTop = 6
    /// Row 0 right, column 0 bottom: transverse.
    case rightBottom = 7
    /// Row 0 left, column 0 bottom: needs 90° counter-clockwise rotation.
    case leftBottom = 8

    /// Whether applying the orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
