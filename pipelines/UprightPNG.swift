import Pipeline

extension Pipelines {
    /// No faces: every image decoded, turned upright by its EXIF orientation
    /// and written as PNG. Also the decode + PNG-encode floor of benchmarks.
    public static let uprightPNG = Pipeline("upright-png",
                                            summary: "no face stages: decode, apply EXIF orientation, write PNG (the I/O floor)") {
        Decode()
        Orient()
        PassPixels()
        WriteOutputs(faceJSON: false)
    }
}
