extension RGBImage {
    /// Luma per pixel (ITU-R BT.601: 0.299 R + 0.587 G + 0.114 B, rounded),
    /// row-major, `width * height` bytes. For sharpness and exposure measures.
    public var grayscale: [UInt8] {
        if pixelCount == 0 { return [] }
        return [UInt8](unsafeUninitializedCapacity: pixelCount) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                let src = source.baseAddress!
                for i in 0..<pixelCount {
                    // Weights in 1/65536: 19595 + 38470 + 7471 = 65536.
                    let sum = 19595 * UInt32(src[i * 3]) + 38470 * UInt32(src[i * 3 + 1])
                        + 7471 * UInt32(src[i * 3 + 2]) + 32768
                    buffer[i] = UInt8(truncatingIfNeeded: sum >> 16)
                }
            }
            count = pixelCount
        }
    }
}
