#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension RGBImage {
    /// Replaces `region` with a blurred, pixelated or black version of
    /// itself, with a feathered edge: the replacement's weight is 1 inside
    /// the region shrunk by `feather / 2`, falls linearly with the distance
    /// from that inner rectangle, is ½ on the region's outline (whose
    /// corners are rounded with radius `feather / 2`) and 0 from `feather`
    /// away. `strength` is the blur's sigma or the pixel cell size, in
    /// pixels (see ``RedactionStyle``).
    ///
    /// Integer arithmetic for the replacement and the blend, and IEEE
    /// operations (no fused multiply-adds) for the weights, so the bytes
    /// are the same on every CPU. A region outside the image changes nothing.
    public mutating func redact(_ region: Rect, feather: Float, style: RedactionStyle, strength: Float) {
        let values = [region.x, region.y, region.width, region.height, feather, strength]
        guard values.allSatisfy(\.isFinite), region.width > 0, region.height > 0 else { return }
        let ramp = max(feather, 1)
        let half = min(ramp / 2, region.width / 2, region.height / 2)
        func clamped(_ value: Float, _ upper: Int) -> Int { Int(min(max(value, 0), Float(upper))) }
        let x0 = clamped((region.x - ramp / 2).rounded(.down), width)
        let x1 = clamped((region.x + region.width + ramp / 2).rounded(.up), width)
        let y0 = clamped((region.y - ramp / 2).rounded(.down), height)
        let y1 = clamped((region.y + region.height + ramp / 2).rounded(.up), height)
        guard x1 > x0, y1 > y0 else { return }
        let patch = replacement(x0: x0, y0: y0, x1: x1, y1: y1, region: region, style: style, strength: strength)
        let innerX0 = region.x + half, innerX1 = region.x + region.width - half
        let innerY0 = region.y + half, innerY1 = region.y + region.height - half
        let patchWidth = x1 - x0
        // Each column's dx², the same product the distance takes per pixel.
        let columnSquares = (x0..<x1).map { x -> Float in
            let cx = Float(x) + 0.5
            let dx = max(innerX0 - cx, 0, cx - innerX1)
            return dx * dx
        }
        let rowBytes = width * 3
        pixels.withUnsafeMutableBufferPointer { image in
            patch.withUnsafeBufferPointer { patch in
                for y in y0..<y1 {
                    let cy = Float(y) + 0.5
                    let dy = max(innerY0 - cy, 0, cy - innerY1)
                    let rowSquare = dy * dy
                    let target = image.baseAddress! + y * rowBytes + x0 * 3, source = patch.baseAddress! + (y - y0) * patchWidth * 3
                    for column in 0..<patchWidth {
                        let squares = columnSquares[column] + rowSquare, p = column * 3
                        // Inside the inner rectangle the weight is 256: the replacement itself.
                        if squares == 0 {
                            target[p] = source[p]; target[p + 1] = source[p + 1]; target[p + 2] = source[p + 2]
                            continue
                        }
                        let distance = squares.squareRoot()
                        // Weight in 1/256 steps: 256 inside, 128 on the outline, 0 at `ramp`.
                        let weight = Int(min(max((ramp - distance) / ramp, 0), 1) * 256 + 0.5)
                        guard weight > 0 else { continue }
                        for channel in 0..<3 {
                            let blended = Int(target[p + channel]) * (256 - weight) + Int(source[p + channel]) * weight + 128
                            target[p + channel] = UInt8(truncatingIfNeeded: blended >> 8)
                        }
                    }
                }
            }
        }
    }

    /// The redacted pixels of columns `x0..<x1`, rows `y0..<y1`.
    private func replacement(x0: Int, y0: Int, x1: Int, y1: Int, region: Rect, style: RedactionStyle, strength: Float) -> [UInt8] {
        let w = x1 - x0, h = y1 - y0
        switch style {
        case .fill:
            return [UInt8](repeating: 0, count: w * h * 3)
        case .pixelate:
            // Cells of a million pixels or more all cover the whole patch alike.
            return pixelated(x0: x0, y0: y0, x1: x1, y1: y1, region: region, cell: max(1, Int(min(strength, 1_048_576).rounded(.up))))
        case .blur:
            // Three box passes of width 2r + 1 have variance 3·((2r+1)² − 1)/12 = r(r+1).
            // A radius of at most 32767 (`BoxAverage`): a sigma of 32767 px or more blurs alike.
            let sigma = min(max(strength, 0.5), 32767)
            let radius = min(max(1, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5)), 32767)
            // Blur a larger window so the region sees its surroundings, not a copied edge.
            let context = 3 * radius
            let bx0 = max(0, x0 - context), bx1 = min(width, x1 + context)
            let by0 = max(0, y0 - context), by1 = min(height, y1 + context)
            let blurred = croppedUnchecked(x: bx0, y: by0, width: bx1 - bx0, height: by1 - by0).boxBlurred(radius: radius, passes: 3)
            return blurred.croppedUnchecked(x: x0 - bx0, y: y0 - by0, width: w, height: h).pixels
        }
    }

    /// Cells of `cell` pixels anchored at the region's top-left corner, each
    /// the rounded mean of its pixels inside columns `x0..<x1`, rows `y0..<y1`.
    private func pixelated(x0: Int, y0: Int, x1: Int, y1: Int, region: Rect, cell: Int) -> [UInt8] {
        let w = x1 - x0, h = y1 - y0
        let originX = Int(region.x.rounded(.down)), originY = Int(region.y.rounded(.down))
        func cellIndex(_ v: Int, _ origin: Int) -> Int {
            let offset = v - origin
            return offset >= 0 ? offset / cell : -((-offset + cell - 1) / cell)
        }
        let firstColumn = cellIndex(x0, originX), firstRow = cellIndex(y0, originY)
        let columns = cellIndex(x1 - 1, originX) - firstColumn + 1, rows = cellIndex(y1 - 1, originY) - firstRow + 1
        var sums = [Int](repeating: 0, count: columns * rows * 3), counts = [Int](repeating: 0, count: columns * rows)
        for y in y0..<y1 {
            let row = cellIndex(y, originY) - firstRow
            for x in x0..<x1 {
                let c = row * columns + cellIndex(x, originX) - firstColumn, i = (y * width + x) * 3
                counts[c] += 1
                for channel in 0..<3 { sums[c * 3 + channel] += Int(pixels[i + channel]) }
            }
        }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in y0..<y1 {
            let row = cellIndex(y, originY) - firstRow
            for x in x0..<x1 {
                let c = row * columns + cellIndex(x, originX) - firstColumn, o = ((y - y0) * w + (x - x0)) * 3
                for channel in 0..<3 {
                    out[o + channel] = UInt8((sums[c * 3 + channel] + counts[c] / 2) / counts[c])
                }
            }
        }
        return out
    }
}
