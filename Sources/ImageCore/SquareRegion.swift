/// A square of the image, in pixels, that a detector input covers. The whole
/// frame letterboxed is the square of side `max(width, height)` centred on
/// the image (black outside).
package struct SquareRegion: Sendable, Hashable {
    package var x: Float
    package var y: Float
    package var side: Float

    package init(x: Float, y: Float, side: Float) {
        self.x = x; self.y = y; self.side = side
    }

    /// The letterbox of a `width × height` image: black bars split evenly
    /// (MediaPipe's FIT scale mode). Undoing it is exactly
    /// `x' = (x − padX)/(1 − 2·padX)` in normalized terms.
    package static func letterbox(width: Int, height: Int) -> SquareRegion {
        let side = Float(max(width, height, 1))
        return SquareRegion(x: (Float(width) - side) / 2, y: (Float(height) - side) / 2, side: side)
    }

    /// The map from tensor coordinates (0…`tensorSize`, pixel centres at
    /// +0.5) to continuous image pixels.
    package func samplingTransform(tensorSize: Int) -> AffineMap {
        let s = side / Float(tensorSize)
        return AffineMap(a: s, b: 0, c: 0, d: s, tx: x, ty: y)
    }
}
