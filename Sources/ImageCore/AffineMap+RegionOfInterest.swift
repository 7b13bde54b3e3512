extension AffineMap {
    /// The output→source map that crops a rotated rectangle of the source into
    /// an `outputWidth`×`outputHeight` image, the way MediaPipe's CPU
    /// image-to-tensor step does it: the output's corners (0, 0), (W, 0),
    /// (0, H), (W, H) land on the rectangle's corners, and pixels are sampled
    /// at integer output coordinates (OpenCV `warpAffine` convention).
    ///
    /// - Parameters:
    ///   - center: the rectangle's centre in source pixels.
    ///   - width, height: its side lengths in source pixels.
    ///   - rotation: radians; the rectangle's x axis points along
    ///     (cos θ, sin θ) in the source, so positive turns clockwise on screen
    ///     (θ = atan2(y₁ − y₀, x₁ − x₀) aligns the x axis with the eye line).
    /// A point p in output pixels maps back to the source as `map(p)`.
    public static func regionOfInterest(center: Point, width: Float, height: Float, rotation: Float,
                                        outputWidth: Int, outputHeight: Int) -> AffineMap {
        AffineMap.translation(x: -Float(outputWidth) / 2, y: -Float(outputHeight) / 2)
            .followed(by: .scale(x: width / Float(outputWidth), y: height / Float(outputHeight)))
            .followed(by: .rotation(radians: rotation))
            .followed(by: .translation(x: center.x, y: center.y))
    }
}

extension AffineMap {
    /// `self` preceded by a left–right flip of the output columns (pixel-index
    /// convention: output column i reads what column `outputWidth − 1 − i`
    /// would have). Use it to feed a model a mirrored crop, e.g. the right eye
    /// to an iris model trained on left eyes; map the model's points back with
    /// x ↦ outputWidth − x (continuous) before applying `self`.
    public func mirroringOutputHorizontally(outputWidth: Int) -> AffineMap {
        AffineMap(a: -1, b: 0, c: 0, d: 1, tx: Float(outputWidth - 1), ty: 0).followed(by: self)
    }
}
