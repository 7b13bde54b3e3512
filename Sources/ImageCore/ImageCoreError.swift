/// Why an ImageCore operation refused its input.
///
/// Every case names the operation and the offending values, so a message that
/// reaches a manifest row says what failed without a stack trace.
public enum ImageCoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A requested output size is zero, negative or larger than
    /// ``RGBImage/maximumDimension`` on a side.
    case invalidSize(operation: String, width: Int, height: Int)
    /// The source image has no pixels, so there is nothing to sample.
    case emptySource(operation: String)
    /// A crop rectangle has a non-finite coordinate or does not overlap the image.
    case cropOutsideImage(Rect, imageWidth: Int, imageHeight: Int)

    public var description: String {
        switch self {
        case let .invalidSize(operation, width, height):
            return "\(operation): invalid output size \(width)x\(height) (each side must be 1...\(RGBImage.maximumDimension))"
        case let .emptySource(operation):
            return "\(operation): the source image is empty"
        case let .cropOutsideImage(rect, width, height):
            return "crop: rectangle (x \(rect.x), y \(rect.y), w \(rect.width), h \(rect.height)) does not overlap the \(width)x\(height) image"
        }
    }
}

extension RGBImage {
    /// The largest width or height any ImageCore operation produces (2^15).
    /// Keeps `width * height * 3` far from overflow and every size plausible.
    public static let maximumDimension = 1 << 15

    /// Throws unless `width` and `height` are in `1...maximumDimension`.
    static func validateOutputSize(_ width: Int, _ height: Int, _ operation: String) throws(ImageCoreError) {
        guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height) else {
            throw .invalidSize(operation: operation, width: width, height: height)
        }
    }
}
