import CFFmpeg
import ImageCore

/// Converts 8-bit RGB to Y'CbCr 4:2:0 (BT.709 matrix, limited range) with integer arithmetic, so the encoder's
/// input, and so its output, is the same on every CPU. Chroma is the mean of each 2×2 block.
struct RGBToYCbCrConverter {
    private let yR: Int, yG: Int, yB: Int
    private let cbR: Int, cbG: Int, cbB: Int
    private let crR: Int, crG: Int, crB: Int

    init(matrix: ColourMatrix = .bt709) {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let unit = 65536.0
        func fixed(_ value: Double) -> Int { Int((value * unit).rounded()) }
        let ys = 219.0 / 255.0, cs = 224.0 / 255.0
        yR = fixed(kr * ys); yG = fixed(kg * ys); yB = fixed(kb * ys)
        // Cb = (B − Y') / (2(1 − Kb)), Cr = (R − Y') / (2(1 − Kr)), scaled to 224 steps.
        let cbScale = cs / (2 * (1 - kb)), crScale = cs / (2 * (1 - kr))
        cbR = fixed(-kr * cbScale); cbG = fixed(-kg * cbScale); cbB = fixed((1 - kb) * cbScale)
        crR = fixed((1 - kr) * crScale); crG = fixed(-kg * crScale); crB = fixed(-kb * crScale)
    }

    /// Writes the top-left `width`×`height` (both even) of `image` into the frame's three planes.
    func convert(_ image: RGBImage, width: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>) {
        let yPlane = frame.pointee.data.0!, uPlane = frame.pointee.data.1!, vPlane = frame.pointee.data.2!
        let yStride = Int(frame.pointee.linesize.0), uStride = Int(frame.pointee.linesize.1), vStride = Int(frame.pointee.linesize.2)
        let imageStride = image.width * 3
        image.pixels.withUnsafeBufferPointer { rgb in
            for y in 0..<height {
                let row = y * imageStride
                let out = yPlane + y * yStride
                for x in 0..<width {
                    let p = row + x * 3
                    let value = (yR * Int(rgb[p]) + yG * Int(rgb[p + 1]) + yB * Int(rgb[p + 2]) + (16 << 16) + (1 << 15)) >> 16
                    out[x] = UInt8(clamping: value)
                }
            }
            for cy in 0..<(height / 2) {
                let top = 2 * cy * imageStride, bottom = top + imageStride
                let uOut = uPlane + cy * uStride, vOut = vPlane + cy * vStride
                for cx in 0..<(width / 2) {
                    let a = top + 6 * cx, b = bottom + 6 * cx
                    let r = Int(rgb[a]) + Int(rgb[a + 3]) + Int(rgb[b]) + Int(rgb[b + 3])
                    let g = Int(rgb[a + 1]) + Int(rgb[a + 4]) + Int(rgb[b + 1]) + Int(rgb[b + 4])
                    let bl = Int(rgb[a + 2]) + Int(rgb[a + 5]) + Int(rgb[b + 2]) + Int(rgb[b + 5])
                    // Sums of four pixels: two more bits of fraction.
                    let u = (cbR * r + cbG * g + cbB * bl + (128 << 18) + (1 << 17)) >> 18
                    let v = (crR * r + crG * g + crB * bl + (128 << 18) + (1 << 17)) >> 18
                    uOut[cx] = UInt8(clamping: u)
                    vOut[cx] = UInt8(clamping: v)
                }
            }
        }
    }
}
