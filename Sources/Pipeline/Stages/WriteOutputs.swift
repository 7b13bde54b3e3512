import ImageCore

/// The last stage of every pipeline: encodes the annotated image (on the
/// worker, in parallel) and says whether the per-image JSON is written; the
/// runner encodes the JSON once the ordered passes ran, then writes both,
/// and the manifest rows, in archive order.
public struct WriteOutputs: Stage {
    public var images: ImageOutputFormat
    /// Whether to write `faces/<archive>/<entry>.json` with every point.
    public var faceJSON: Bool

    /// - Parameters:
    ///   - images: the image format (default PNG).
    ///   - faceJSON: whether to write the per-image JSON (default true).
    public init(images: ImageOutputFormat = .png, faceJSON: Bool = true) {
        self.images = images
        self.faceJSON = faceJSON
    }

    public static var optionTable: [StageOption<Self>] { [StageOption("images", \.images), StageOption("face-json", \.faceJSON)] }

    /// The stage's name in definitions, `describe` and `--set`.
    package static let stageName = "write-outputs"
    public var definition: StageDefinition { StageDefinition(Self.stageName, optionsOf: self) }

    public func validate() throws(PipelineError) {
        if let quality = images.jpegQuality, !(1...100).contains(quality) {
            throw .invalidOption(stage: Self.stageName, option: "images", reason: "JPEG quality must be within 1…100, got \(quality)")
        }
    }

    public func process(_ frame: Frame<Phase.Annotated>, context: StageContext) throws -> RenderedEntry {
        // `--redacted-shards`: a PNG entry stays PNG (the runner checked that `images` is a JPEG).
        let format = context.shared.imagesInEntryFormat && frame.record.sourceFormat == .png ? ImageOutputFormat.png : images
        if frame.record.frame != nil, let encode = format.encode {
            // A video frame: the encode step draws its labels once it is tracked, then it goes into the video (or is encoded).
            let annotate = frame.deferredLabels
            var rendered = RenderedEntry(record: frame.record, image: nil, imageExtension: format.fileExtension, writesFaceJSON: faceJSON)
            rendered.deferredLabels = DeferredLabels(image: frame.image, annotate: annotate, encode: encode)
            return rendered
        }
        let image = try format.encode.map { try $0(frame.image) }
        return RenderedEntry(record: frame.record, image: image, imageExtension: format.fileExtension, writesFaceJSON: faceJSON)
    }
}
