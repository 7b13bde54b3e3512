#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A picture turned in-plane by any angle, and the map back to it.
public struct TurnedImage: Sendable, Equatable {
    /// The turned picture on a canvas just large enough to hold all of it;
    /// canvas pixels the picture does not cover are `RGBImage.turned`'s fill.
    public var image: RGBImage
    /// Canvas coordinates to the source picture's (continuous: pixel `i`
    /// covers `i…i+1`), for mapping what is found on the canvas back.
    public var toSource: AffineMap
}

extension RGBImage {
    /// Fractional bits of the turned sampling's fixed-point positions.
    static let turnFractionBits = 16

    /// This picture turned clockwise on screen (y down) by `radians` about
    /// its centre, on a canvas of `ceil(w·|cos| + h·|sin|)` ×
    /// `ceil(w·|sin| + h·|cos|)` pixels with the picture's centre on the
    /// canvas's; canvas pixels whose centre falls outside the picture are
    /// `fill`.
    ///
    /// Integer arithmetic only after the map is fixed: each canvas pixel
    /// centre's position in the picture is a 48.16 fixed-point sum of whole
    /// steps (the map's coefficients rounded once to 1/65 536 px), and its
    /// value the bilinear mean of the four nearest pixels (taps clamped to
    /// the picture's edge) with 8-bit weights, rounded half up. So the
    /// bytes are the same on every CPU kind and at every kernel setting.
    public func turned(by radians: Float, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) -> TurnedImage {
        // Canvas → picture is the turn by −radians about the centres: x' = cos·x + sin·y, y' = −sin·x + cos·y.
        let cosine = cos(Double(radians)), sine = sin(Double(radians))
        let fw = Double(width), fh = Double(height)
        func side(_ value: Double) -> Int { pixelCount == 0 ? 0 : max(1, Int((value - 1e-3).rounded(.up))) }
        let canvasWidth = side(fw * abs(cosine) + fh * abs(sine)), canvasHeight = side(fw * abs(sine) + fh * abs(cosine))
        var canvas = RGBImage(width: canvasWidth, height: canvasHeight, fill: fill)
        // Steps rounded once to 1/2¹⁶ px; the canvas's centre lands exactly on the picture's.
        let one = Double(1 << Self.turnFractionBits)
        let stepU = (x: Int((cosine * one).rounded()), y: Int((-sine * one).rounded()))
        let stepV = (x: Int((sine * one).rounded()), y: Int((cosine * one).rounded()))
        // Tap coordinates (pixel i's centre at i) of canvas pixel (u, v): origin + u·stepU + v·stepV.
        let cu = Double(canvasWidth) / 2 - 0.5, cv = Double(canvasHeight) / 2 - 0.5
        let origin = (x: Int(((fw / 2 - 0.5) * one - Double(stepU.x) * cu - Double(stepV.x) * cv).rounded()),
                      y: Int(((fh / 2 - 0.5) * one - Double(stepU.y) * cu - Double(stepV.y) * cv).rounded()))
        let toSource = AffineMap(a: Float(Double(stepU.x) / one), b: Float(Double(stepV.x) / one),
                                 c: Float(Double(stepU.y) / one), d: Float(Double(stepV.y) / one),
                                 tx: Float((Double(origin.x) + Double(stepU.x + stepV.x) * -0.5) / one + 0.5),
                                 ty: Float((Double(origin.y) + Double(stepU.y + stepV.y) * -0.5) / one + 0.5))
        guard pixelCount > 0 else { return TurnedImage(image: canvas, toSource: toSource) }
        let half = 1 << (Self.turnFractionBits - 1)
        // A centre inside the picture lies in −½…w−½ (tap coordinates).
        let lowest = -half, highestX = width * (1 << Self.turnFractionBits) - half
        let highestY = height * (1 << Self.turnFractionBits) - half
        let (w, h) = (width, height)
        pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                let src = source.baseAddress!, dst = target.baseAddress!
                for v in 0..<canvasHeight {
                    var x = origin.x + v * stepV.x, y = origin.y + v * stepV.y
                    var o = v * canvasWidth * 3
                    for _ in 0..<canvasWidth {
                        defer { x += stepU.x; y += stepU.y; o += 3 }
                        guard x >= lowest, x <= highestX, y >= lowest, y <= highestY else { continue }
                        let cx = min(max(x, 0), (w - 1) << Self.turnFractionBits)
                        let cy = min(max(y, 0), (h - 1) << Self.turnFractionBits)
                        let x0 = cx >> Self.turnFractionBits, y0 = cy >> Self.turnFractionBits
                        let fx = (cx >> (Self.turnFractionBits - 8)) & 0xFF, fy = (cy >> (Self.turnFractionBits - 8)) & 0xFF
                        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
                        let top = y0 * w, bottom = y1 * w
                        let p00 = (top + x0) * 3, p01 = (top + x1) * 3, p10 = (bottom + x0) * 3, p11 = (bottom + x1) * 3
                        for channel in 0..<3 {
                            let upper = Int(src[p00 + channel]) * (256 - fx) + Int(src[p01 + channel]) * fx
                            let lower = Int(src[p10 + channel]) * (256 - fx) + Int(src[p11 + channel]) * fx
                            dst[o + channel] = UInt8(truncatingIfNeeded: (upper * (256 - fy) + lower * fy + 32_768) >> 16)
                        }
                    }
                }
            }
        }
        return TurnedImage(image: canvas, toSource: toSource)
    }
}
