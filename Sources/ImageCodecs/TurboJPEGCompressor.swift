import CTurboJPEG

/// Owns one TurboJPEG compression handle (freed in `deinit`). `package`: the
/// tests build their JPEG fixtures with it at test time (baseline,
/// progressive, greyscale, CMYK), so few binary fixtures are committed.
package final class TurboJPEGCompressor {
    /// The samples handed to `compress`.
    package enum Input: Sendable {
        /// 3 bytes per pixel.
        case rgb
        /// 1 byte per pixel; the JPEG is single-component greyscale.
        case grey
        /// 4 bytes per pixel, stored as given (TurboJPEG writes a YCCK JPEG with an Adobe segment).
        case cmyk
    }

    private let handle: tjhandle

    package init() throws(ImageDecodeError) {
        guard let handle = tjInitCompress() else {
            throw .codecUnavailable(detail: "TurboJPEG: \(String(cString: tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// A JPEG of `pixels`. `subsampling444` selects 4:4:4 instead of 4:2:0.
    package func compress(_ pixels: [UInt8], width: Int, height: Int, input: Input, quality: Int,
                          subsampling444: Bool = false, progressive: Bool = false) throws(ImageDecodeError) -> [UInt8] {
        let (format, pixelSize): (TJPF, Int) = switch input {
        case .rgb: (TJPF_RGB, 3)
        case .grey: (TJPF_GRAY, 1)
        case .cmyk: (TJPF_CMYK, 4)
        }
        precondition(pixels.count == width * height * pixelSize, "TurboJPEGCompressor: pixel count does not match the size")
        let subsampling: TJSAMP = input == .grey ? TJSAMP_GRAY : (subsampling444 ? TJSAMP_444 : TJSAMP_420)
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), Int32(width * pixelSize), Int32(height),
                        Int32(format.rawValue), &output, &size, Int32(subsampling.rawValue), Int32(quality),
                        progressive ? TJFLAG_PROGRESSIVE : 0)
        }
        guard status == 0, let output else {
            throw .corrupt(format: .jpeg, detail: "TurboJPEG compress: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
