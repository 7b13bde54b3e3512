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
        let planes = (frame.pointee.data.0!, grey ? frame.pointee.data.0! : frame.pointee.data.1!,
                      grey ? frame.pointee.data.0! : frame.pointee.data.2!)
        let strides = (Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2))
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            luma.withUnsafeBufferPointer { luma in
            redFromCr.withUnsafeBufferPointer { rV in
            greenFromCb.withUnsafeBufferPointer { gU in
            greenFromCr.withUnsafeBufferPointer { gV in
            blueFromCb.withUnsafeBufferPointer { bU in
                let out = out.baseAddress!
                for y in 0..<height {
                    let o = out + y * width * 3
                    let yRow = UnsafeRawPointer(planes.0 + y * strides.0)
                    if grey {
                        if bytesPerSample == 1 {
                            Self.greyRow(yRow.assumingMemoryBound(to: UInt8.self), width, luma, o)
                        } else {
                            Self.greyRow(yRow.assumingMemoryBound(to: UInt16.self), width, luma, o)
                        }
                        continue
                    }
                    let cy = y >> chromaShiftY
                    let uRow = UnsafeRawPointer(planes.1 + cy * strides.1), vRow = UnsafeRawPointer(planes.2 + cy * strides.2)
                    if bytesPerSample == 1 {
                        Self.colourRow(yRow.assumingMemoryBound(to: UInt8.self), uRow.assumingMemoryBound(to: UInt8.self),
                                       vRow.assumingMemoryBound(to: UInt8.self), width, chromaShiftX, luma, rV, gU, gV, bU, o)
                    } else {
                        Self.colourRow(yRow.assumingMemoryBound(to: UInt16.self), uRow.assumingMemoryBound(to: UInt16.self),
                                       vRow.assumingMemoryBound(to: UInt16.self), width, chromaShiftX, luma, rV, gU, gV, bU, o)
                    }
                }
            }}}}}
            count = width * height * 3
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @inline(__always)
    private static func byte(_ value: Int32) -> UInt8 { UInt8(clamping: (value &+ 32768) >> 16) }

    /// A sample as a table index: little-endian, and no larger than the table (a hostile stream may set
    /// bits above its depth).
    @inline(__always)
    private static func index<S: FixedWidthInteger & UnsignedInteger>(_ sample: S, _ top: Int) -> Int {
        min(Int(S(littleEndian: sample)), top)
    }

    @inline(__always)
    private static func colourRow<S: FixedWidthInteger & UnsignedInteger>(
        _ yRow: UnsafePointer<S>, _ uRow: UnsafePointer<S>, _ vRow: UnsafePointer<S>, _ width: Int, _ shift: Int,
        _ luma: UnsafeBufferPointer<Int32>, _ rV: UnsafeBufferPointer<Int32>, _ gU: UnsafeBufferPointer<Int32>,
        _ gV: UnsafeBufferPointer<Int32>, _ bU: UnsafeBufferPointer<Int32>, _ out: UnsafeMutablePointer<UInt8>
    ) {
        let top = luma.count - 1
        var o = out
        for x in 0..<width {
            let l = luma[index(yRow[x], top)]
            let u = index(uRow[x >> shift], top), v = index(vRow[x >> shift], top)
            o[0] = byte(l &+ rV[v])
            o[1] = byte(l &+ gU[u] &+ gV[v])
            o[2] = byte(l &+ bU[u])
            o += 3
        }
    }

    @inline(__always)
    private static func greyRow<S: FixedWidthInteger & UnsignedInteger>(
        _ yRow: UnsafePointer<S>, _ width: Int, _ luma: UnsafeBufferPointer<Int32>, _ out: UnsafeMutablePointer<UInt8>
    ) {
        let top = luma.count - 1
        var o = out
        for x in 0..<width {
            let v = byte(luma[index(yRow[x], top)])
            o[0] = v; o[1] = v; o[2] = v
            o += 3
        }
    }

}
