/// An affine map from continuous tensor coordinates `(u, v)` (0…size, pixel
/// centres at +0.5) to continuous image coordinates (pixel `i` covers
/// `i…i+1`): `x = a·u + b·v + c`, `y = d·u + e·v + f`.
package struct SamplingTransform: Sendable, Hashable {
    package var a: Float, b: Float, c: Float
    package var d: Float, e: Float, f: Float

    package init(a: Float, b: Float, c: Float, d: Float, e: Float, f: Float) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
    }

    @inline(__always)
    package func apply(_ u: Float, _ v: Float) -> SIMD2<Float> {
        SIMD2(a * u + b * v + c, d * u + e * v + f)
    }

    /// Image pixels per tensor pixel (the larger axis scale).
    package var scale: Float {
        max((a * a + d * d).squareRoot(), (b * b + e * e).squareRoot())
    }
}
