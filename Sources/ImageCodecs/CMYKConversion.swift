/// CMYK → RGB for JPEGs TurboJPEG decodes as `TJPF_CMYK` (it cannot output
/// RGB from CMYK or YCCK itself).
///
/// Convention: Adobe applications (Photoshop, and everything that writes an
/// `APP14 Adobe` segment) store CMYK *inverted*: 255 means no ink. For such
/// files a stored sample `s` means ink `255 - s`; without the Adobe segment
/// the samples are taken as plain ink amounts. The conversion is the naive
/// multiplicative one, no colour management: `R = (255 - C)(255 - K) / 255`
/// (likewise G from M, B from Y), rounded to nearest.
enum CMYKConversion {
    /// Converts `pixelCount` CMYK pixels to RGB. Buffers are checked once, the loop is unchecked.
    static func convert(cmyk: UnsafeRawBufferPointer, into rgb: UnsafeMutableRawBufferPointer,
                        pixelCount: Int, adobeInverted: Bool) {
        precondition(cmyk.count >= pixelCount * 4 && rgb.count >= pixelCount * 3, "CMYK conversion buffers too small")
        guard pixelCount > 0 else { return }
        let source = cmyk.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let destination = rgb.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // With inverted storage the stored value already is 255 - ink.
        let flip: UInt32 = adobeInverted ? 0 : 255
        for pixel in 0..<pixelCount {
            let s = source + 4 * pixel, d = destination + 3 * pixel
            let white = flip ^ UInt32(s[3])  // 255 - K (or K stored inverted)
            d[0] = UInt8(truncatingIfNeeded: ((flip ^ UInt32(s[0])) * white + 127) / 255)
            d[1] = UInt8(truncatingIfNeeded: ((flip ^ UInt32(s[1])) * white + 127) / 255)
            d[2] = UInt8(truncatingIfNeeded: ((flip ^ UInt32(s[2])) * white + 127) / 255)
        }
    }
}
