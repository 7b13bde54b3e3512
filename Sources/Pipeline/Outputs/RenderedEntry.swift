/// What a pipeline produces for one entry, ready for the run's ordered
/// step and its one encode step: the record, the encoded annotated image
/// and whether to write the per-image JSON. The picture is encoded on the
/// workers (it depends on nothing in order); the JSON, crops and a video
/// frame's labels are made once, after the ordered passes (the runner's encode step).
public struct RenderedEntry: Sendable {
    public var record: EntryRecord
    /// Encoded image bytes, nil when the pipeline writes no images.
    public var image: [UInt8]?
    /// File extension of `image` (without dot), e.g. "png".
    public var imageExtension: String
    /// Whether the per-image JSON is written (encoded once, from the record
    /// as the ordered passes leave it).
    public var writesFaceJSON: Bool
    /// A video frame whose labels the encode step draws (`image` is nil until then).
    package var deferredLabels: DeferredLabels?

    public init(record: EntryRecord, image: [UInt8]?, imageExtension: String, writesFaceJSON: Bool) {
        self.record = record
        self.image = image
        self.imageExtension = imageExtension
        self.writesFaceJSON = writesFaceJSON
    }
}
