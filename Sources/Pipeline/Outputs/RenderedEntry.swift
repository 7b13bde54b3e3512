/// What a pipeline produces for one entry, ready to be written in archive
/// order: the record, the encoded annotated image and the per-image JSON.
/// Encoding happens on the workers; the writer only copies bytes.
public struct RenderedEntry: Sendable {
    public var record: EntryRecord
    /// Encoded image bytes, nil when the pipeline writes no images.
    public var image: [UInt8]?
    /// File extension of `image` (without dot), e.g. "png".
    public var imageExtension: String
    /// The per-image JSON document, nil when the pipeline writes none.
    public var faceJSON: [UInt8]?
    /// A video frame whose labels the writer draws (`image` is nil until then).
    package var deferredLabels: DeferredLabels?

    public init(record: EntryRecord, image: [UInt8]?, imageExtension: String, faceJSON: [UInt8]?) {
        self.record = record
        self.image = image
        self.imageExtension = imageExtension
        self.faceJSON = faceJSON
    }
}
