import ImageCodecs

extension ImageOutputFormat {
    /// Lossless PNG with the codecs' default (fast) settings; deterministic bytes.
    public static let png = ImageOutputFormat.png(PNGEncodeOptions())

    /// PNG with explicit compression settings.
    public static func png(_ options: PNGEncodeOptions) -> ImageOutputFormat {
        let name = options == PNGEncodeOptions()
            ? "png"
            : "png(level \(options.level), \(options.strategy), \(options.filter))"
        return ImageOutputFormat(name: name, fileExtension: "png") { image in
            try PNGEncoder.encode(image, options: options)
        }
    }
}
