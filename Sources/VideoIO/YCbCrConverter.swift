import CFFmpeg
import ImageCore

/// Converts decoded planar Y'CbCr (or grey) frames of 8 to 16 bits to 8-bit RGB with integer tables, so the
/// bytes are the same on every CPU (no swscale, whose paths differ by instruction set).
///
/// Per sample value the tables hold the contribution to R, G and B in 1/65536 units, computed once from the
/// matrix (BT.601, BT.709, BT.2020) and range (limited: Y 16–235, C 16–240 scaled by the bit depth; full: 0–255);
/// a pixel is the rounded, clamped sum. Chroma is taken from the sample covering the pixel (no interpolation).
struct YCbCrConverter {
    struct Layout: Equatable {
        var format: Int32
        var matrix: ColourMatrix
        var fullRange: Bool
    }

    let layout: Layout
    private let depth: Int
    private let bytesPerSample: Int
    private let chromaShiftX: Int
    private let chromaShiftY: Int
    private let grey: Bool
    private let luma: [Int32]       // Y → Y' in 1/65536
    private let redFromCr: [Int32]
    private let greenFromCb: [Int32]
    private let greenFromCr: [Int32]
    private let blueFromCb: [Int32]

    /// The converter for `format`, or nil when it is not planar Y'CbCr / grey with one sample per plane position.
    init?(format: Int32, matrix: ColourMatrix, fullRange: Bool) {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(format))?.pointee else { return nil }
        let refused = UInt64(AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL
                             | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER)
        guard descriptor.flags & refused == 0 else { return nil }
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2]
        let colourComponents: Int
        switch descriptor.nb_components {
        case 1: colourComponents = 1
        case 3, 4: colourComponents = 3   // a fourth (alpha) component is ignored
        default: return nil
        }
        let depth = Int(components[0].depth)
        guard (8...16).contains(depth) else { return nil }
        let bytesPerSample = depth > 8 ? 2 : 1
        for index in 0..<colourComponents {
            let component = components[index]
            guard Int(component.plane) == index, Int(component.step) == bytesPerSample, component.offset == 0,
                  component.shift == 0, Int(component.depth) == depth else { return nil }
        }
        self.layout = Layout(format: format, matrix: matrix, fullRange: fullRange)
        self.depth = depth
        self.bytesPerSample = bytesPerSample
        self.grey = colourComponents == 1
        self.chromaShiftX = Int(descriptor.log2_chroma_w)
        self.chromaShiftY = Int(descriptor.log2_chroma_h)

        let values = 1 << depth
        let scale = Double(1 << (depth - 8))   // sample units per 8-bit step
        let unit = 65536.0
        let yScale = fullRange ? 1.0 : 255.0 / 219.0
        let cScale = fullRange ? 1.0 : 255.0 / 224.0
        let yOffset = fullRange ? 0.0 : 16.0
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        func table(_ f: (Double) -> Double) -> [Int32] {
            (0..<values).map { Int32(f(Double($0) / scale).rounded()) }
        }
        luma = table { ($0 - yOffset) * yScale * unit }
        redFromCr = table { ($0 - 128) * cScale * 2 * (1 - kr) * unit }
        greenFromCb = table { -($0 - 128) * cScale * 2 * kb * (1 - kb) / kg * unit }
        greenFromCr = table { -($0 - 128) * cScale * 2 * kr * (1 - kr) / kg * unit }
        blueFromCb = table { ($0 - 128) * cScale * 2 * (1 - kb) * unit }
    }

    /// The RGB image of `frame` (whose format is this converter's).
    func convert(_ frame: UnsafePointer<AVFrame>) -> RGBImage {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let strides = [Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2)]
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            count = width * height * 3
            luma.withUnsafeBufferPointer { luma in
            redFromCr.withUnsafeBufferPointer { rV in
            greenFromCb.withUnsafeBufferPointer { gU in
            greenFromCr.withUnsafeBufferPointer { gV in
            blueFromCb.withUnsafeBufferPointer { bU in
                let top = Int32(values - 1)
                @inline(__always) func sample(_ row: UnsafeMutablePointer<UInt8>, _ x: Int) -> Int {
                    if bytesPerSample == 1 { return Int(row[x]) }
                    let raw = UnsafeRawPointer(row).loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)
                    return Int(min(Int32(UInt16(littleEndian: raw)), top))
                }
                @inline(__always) func byte(_ value: Int32) -> UInt8 {
                    UInt8(clamping: (value + 32768) >> 16)
                }
                for y in 0..<height {
                    let yRow = planes[0]! + y * strides[0]
                    var o = y * width * 3
                    if grey {
                        for x in 0..<width {
                            let v = byte(luma[sample(yRow, x)])
                            out[o] = v; out[o + 1] = v; out[o + 2] = v
                            o += 3
                        }
                        continue
                    }
                    let cy = y >> chromaShiftY
                    let uRow = planes[1]! + cy * strides[1]
                    let vRow = planes[2]! + cy * strides[2]
                    for x in 0..<width {
                        let l = luma[sample(yRow, x)]
                        let u = sample(uRow, x >> chromaShiftX), v = sample(vRow, x >> chromaShiftX)
                        out[o] = byte(l + rV[v])
                        out[o + 1] = byte(l + gU[u] + gV[v])
                        out[o + 2] = byte(l + bU[u])
                        o += 3
                    }
                }
            }}}}}
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private var values: Int { 1 << depth }
}
