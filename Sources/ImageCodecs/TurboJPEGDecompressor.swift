import CTurboJPEG

/// Owns one TurboJPEG decompression handle (freed in `deinit`). Not Sendable:
/// each worker's `ImageDecoder` creates its own, so handles are never shared.
final class TurboJPEGDecompressor {
    /// What `tjDecompressHeader3` reports.
    struct Header {
        var width: Int
        var height: Int
        /// A `TJCS` value.
        var colorspace: Int32
        var isCMYK: Bool { colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) }
    }

    private let handle: tjhandle

    /// The `JPEGScale`s this TurboJPEG offers, from `tjGetScalingFactors`
    /// (libjpeg-turbo offers every n/8; facepipe uses 1/1, 1/2, 1/4, 1/8).
    static let supportedScales: Set<JPEGScale> = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [.full] }
        var scales: Set<JPEGScale> = []
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num == 1 {
            if let scale = JPEGScale(rawValue: Int(factor.denom)) { scales.insert(scale) }
        }
        return scales
    }()

    init() throws(ImageDecodeError) {
        guard let handle = tjInitDecompress() else {
            throw .codecUnavailable(detail: "TurboJPEG: \(String(cString: tjGetErrorStr2(nil)))")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// The header, or the error TurboJPEG reports for it.
    func header(of jpeg: UnsafeRawBufferPointer, markers: JPEGMarkers) throws(ImageDecodeError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                         &width, &height, &subsampling, &colorspace)
        if status != 0 {
            throw translateFailure(ofHeader: true, markers: markers)
        }
        return Header(width: Int(width), height: Int(height), colorspace: colorspace)
    }

    /// Decodes into `destination` (`width × height × channels` bytes for the
    /// scaled size) and returns the benign warnings met.
    func decompress(_ jpeg: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                    width: Int, height: Int, pixelFormat: TJPF, markers: JPEGMarkers) throws(ImageDecodeError) -> [String] {
        let pixelSize = Self.pixelSize(pixelFormat)
        precondition(destination.count >= width * height * pixelSize, "JPEG destination buffer too small")
        let status = tjDecompress2(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                   destination.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                   Int32(width), Int32(width * pixelSize), Int32(height),
                                   Int32(pixelFormat.rawValue), TJFLAG_LIMITSCANS)
        guard status != 0 else { return [] }
        let failure = translateFailure(ofHeader: false, markers: markers)
        if case .corrupt(_, let detail) = failure, Self.isBenignWarning(detail), tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
            return ["JPEG: \(detail)"]
        }
        throw failure
    }

    static func pixelSize(_ format: TJPF) -> Int {
        format == TJPF_CMYK ? 4 : 3
    }

    // MARK: Error translation (the one place TurboJPEG failures become ImageDecodeError)

    /// Turns the handle's last error into an `ImageDecodeError`.
    ///
    /// Policy for libjpeg *warnings* (TurboJPEG still returns pixels):
    /// - "Premature end of JPEG file": the data was cut off and the rest of
    ///   the image would be grey filler. That poisons a dataset silently, so it
    ///   is the error `.truncated`, never a warning.
    /// - "Corrupt JPEG data: …" (bad Huffman code, lost restart marker, …):
    ///   damaged pixels, the error `.corrupt`, except the two harmless ones
    ///   `isBenignWarning` lists, which become warnings on the decoded image.
    /// - Other warnings (unknown JFIF revision, odd progression) describe
    ///   metadata, not pixels: `isBenignWarning` accepts them too.
    private func translateFailure(ofHeader: Bool, markers: JPEGMarkers) -> ImageDecodeError {
        let message = String(cString: tjGetErrorStr2(handle))
        if message.contains("Premature end of JPEG file") || (ofHeader && markers.runsPastEnd) {
            return .truncated(format: .jpeg, detail: message)
        }
        // 12-bit precision, lossless or hierarchical processes (SOF3, SOF5…), impossible colour conversions.
        // ("Unsupported marker type" is damage, not a feature: it stays `.corrupt`.)
        if ["Unsupported JPEG", "Unsupported color conversion", "omitted at compile time"].contains(where: message.contains) {
            return .unsupported(format: .jpeg, detail: message)
        }
        return .corrupt(format: .jpeg, detail: message)
    }

    /// Warnings that leave the pixels intact.
    static func isBenignWarning(_ message: String) -> Bool {
        if message.contains("Corrupt JPEG data") {
            return message.contains("extraneous bytes before marker") || message.contains("bad ICC marker")
        }
        return !message.contains("Premature end")
    }
}
