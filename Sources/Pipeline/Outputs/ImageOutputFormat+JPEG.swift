import ImageCodecs

extension ImageOutputFormat {
    /// Baseline JPEG from TurboJPEG at `quality` (1…100), 4:2:0, integer
    /// DCT (the same bytes on every CPU). The file holds the pixels only:
    /// TurboJPEG writes a JFIF header and no EXIF, GPS, maker notes or ICC
    /// profile, so none of the input's metadata survives. A JPEG of an entry
    /// named `.jpg`/`.jpeg` keeps the entry's name.
    public static func jpeg(quality: Int) -> ImageOutputFormat {
        ImageOutputFormat(name: "jpeg(quality: \(quality))", fileExtension: "jpg") { image in
            try TurboJPEGCompressor().compress(image.pixels, width: image.width, height: image.height,
                                               input: .rgb, quality: quality)
        }
    }

    /// The JPEG quality when the format is a JPEG.
    package var jpegQuality: Int? {
        guard name.hasPrefix("jpeg(quality: "), name.hasSuffix(")") else { return nil }
        return Int(name.dropFirst("jpeg(quality: ".count).dropLast())
    }
}
