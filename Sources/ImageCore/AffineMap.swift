#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2×3 affine map of the plane, in image coordinates (x right, y down).
/// (Named `AffineMap`, not `AffineTransform`, so it never clashes with
/// Foundation's type in files that import both.)
///
///
///     x' = a·x + b·y + tx
///     y' = c·x + d·y + ty
///
/// Compose with ``followed(by:)`` (apply `self`, then the argument). Because y
/// points down, ``rotation(radians:)`` with a positive angle turns clockwise on
/// screen. `TensorSampler.sample` takes one as its tensor-to-image map, in
/// continuous coordinates (pixel `i` covers `i…i+1`, its centre at `i + 0.5`).
public struct AffineMap: Sendable, Hashable, Codable, CustomStringConvertible {
    public var a: Float
    public var b: Float
    public var c: Float
    public var d: Float
    public var tx: Float
    public var ty: Float

    public init(a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(x: Float, y: Float) -> AffineMap {
        AffineMap(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(x: Float, y: Float) -> AffineMap {
        AffineMap(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    public static func scale(_ factor: Float) -> AffineMap {
        scale(x: factor, y: factor)
    }

    /// Rotation about the origin; positive `radians` turn clockwise on screen
    /// (the x axis turns towards +y, which points down).
    public static func rotation(radians: Float) -> AffineMap {
        let (sine, cosine) = (Float(sin(Double(radians))), Float(cos(Double(radians))))
        return AffineMap(a: cosine, b: -sine, c: sine, d: cosine, tx: 0, ty: 0)
    }

    /// Rotation by `radians` about `center`.
    public static func rotation(radians: Float, about center: Point) -> AffineMap {
        translation(x: -center.x, y: -center.y)
            .followed(by: rotation(radians: radians))
            .followed(by: translation(x: center.x, y: center.y))
    }

    /// The transform that applies `self` first, then `next`.
    public func followed(by next: AffineMap) -> AffineMap {
        AffineMap(
            a: next.a * a + next.b * c, b: next.a * b + next.b * d,
            c: next.c * a + next.d * c, d: next.c * b + next.d * d,
            tx: next.a * tx + next.b * ty + next.tx,
            ty: next.c * tx + next.d * ty + next.ty)
    }

    /// The inverse map, or `nil` when the linear part is singular or a
    /// coefficient is not finite.
    public func inverted() -> AffineMap? {
        let determinant = Double(a) * Double(d) - Double(b) * Double(c)
        guard determinant.isFinite, determinant != 0, isFinite else { return nil }
        let ia = Double(d) / determinant, ib = -Double(b) / determinant
        let ic = -Double(c) / determinant, id = Double(a) / determinant
        let inverse = AffineMap(
            a: Float(ia), b: Float(ib), c: Float(ic), d: Float(id),
            tx: Float(-(ia * Double(tx) + ib * Double(ty))),
            ty: Float(-(ic * Double(tx) + id * Double(ty))))
        return inverse.isFinite ? inverse : nil
    }

    /// Applies the map to a point.
    @inlinable
    public func map(_ point: Point) -> Point {
        Point(x: a * point.x + b * point.y + tx, y: c * point.x + d * point.y + ty)
    }

    /// The determinant of the linear part: the factor by which areas scale.
    public var determinant: Float { a * d - b * c }

    /// Whether every coefficient is finite.
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// How far the map stretches a unit step along x or along y, whichever
    /// is longer: for a tensor-to-image map, image pixels per tensor pixel.
    public var largerAxisScale: Float {
        max((a * a + c * c).squareRoot(), (b * b + d * d).squareRoot())
    }

    public var description: String {
        "AffineMap(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))"
    }
}
