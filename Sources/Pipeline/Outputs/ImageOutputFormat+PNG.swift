import ImageCodecs

extension ImageOutputFormat {
    /// Lossless PNG written by facepipe's own encoder (`FastPNGEncoder`, Paeth
    /// filter, dynamic-Huffman deflate with run matches); deterministic bytes.
    public static let png = ImageOutputFormat.png(FastPNGEncodeOptions())

    /// PNG from `FastPNGEncoder` with explicit settings. The name spells the
    /// settings out (e.g. `png(fast: paeth, runs, 256 KiB blocks)`), so the
    /// fingerprint changes with them — and differs from the libpng-written
    /// default of earlier versions, whose files had other bytes.
    public static func png(_ options: FastPNGEncodeOptions) -> ImageOutputFormat {
        let name = "png(fast: \(options))"
        return ImageOutputFormat(name: name, fileExtension: "png") { image in
            try FastPNGEncoder.encode(image, options: options)
        }
    }

    /// PNG written by libpng and zlib with explicit compression settings
    /// (smaller files, several times slower).
    public static func png(_ options: PNGEncodeOptions) -> ImageOutputFormat {
        let name = "png(libpng level \(options.level), \(options.strategy), \(options.filter))"
        return ImageOutputFormat(name: name, fileExtension: "png") { image in
            try PNGEncoder.encode(image, options: options)
        }
    }
}
