/// How large to draw one face's annotations: strokes and dots follow the
/// face (a 20-px face gets hairlines and specks, a 600-px face bold ones),
/// capped by the picture so a face filling a thumbnail stays visible under
/// its marks. Sizes are in pixels; a face's size is the shorter side of its
/// box.
///
/// | mark | size | clamped to |
/// |---|---|---|
/// | box outline width | face / 60 | 1 … max(1, short side / 200) |
/// | contour and iris width | face / 120 | 0.5 … box outline width |
/// | keypoint dot radius | face / 40 | 0.75 … max(1.5, short side / 150) |
/// | mesh dot radius | face / 300 | 0.5 … keypoint dot radius / 2 |
public struct AnnotationScale: Sendable, Hashable {
    public var lineWidth: Float
    public var detailWidth: Float
    public var dotRadius: Float
    public var meshDotRadius: Float

    public init(lineWidth: Float, detailWidth: Float, dotRadius: Float, meshDotRadius: Float) {
        self.lineWidth = lineWidth; self.detailWidth = detailWidth
        self.dotRadius = dotRadius; self.meshDotRadius = meshDotRadius
    }

    /// The sizes for a face with box `face` in a `pictureWidth × pictureHeight` picture.
    public init(face: Rect, pictureWidth: Int, pictureHeight: Int) {
        let size = Self.faceSize(face)
        let shortSide = Float(max(min(pictureWidth, pictureHeight), 1))
        lineWidth = min(max(size / 60, 1), max(1, shortSide / 200))
        detailWidth = min(max(size / 120, 0.5), lineWidth)
        dotRadius = min(max(size / 40, 0.75), max(1.5, shortSide / 150))
        meshDotRadius = max(0.5, min(size / 300, dotRadius / 2))
    }

    /// The shorter side of the box (0 for a non-finite one).
    static func faceSize(_ box: Rect) -> Float {
        let size = min(abs(box.width), abs(box.height))
        return size.isFinite ? size : 0
    }

    /// The ``BitmapFont`` scale for face labels in a picture: one scale
    /// step per 500 px of the shorter side (rounded), at least 2 (16-px
    /// text on a 20-px label) from a 240-px short side up, so a 640 × 427
    /// thumbnail and a 1920 × 1080 frame get 2 and a 4000 × 3000 photo 6
    /// (text 1/60 of its height); 1 in smaller pictures. Then lowered while
    /// `widestText` would not fit across the picture with its padding.
    public static func labelScale(pictureWidth: Int, pictureHeight: Int, widestText: String = "") -> Int {
        let shortSide = min(pictureWidth, pictureHeight)
        var scale = shortSide < 240 ? 1 : max(2, Int((Double(shortSide) / 500).rounded()))
        scale = min(scale, BitmapFont.maximumScale)
        while scale > 1, BitmapFont.size(of: widestText, scale: scale).width + 2 * scale > pictureWidth {
            scale -= 1
        }
        return scale
    }
}
