import ImageCore

/// A video frame's picture whose face labels are drawn by the ordered
/// writer, after the in-order passes gave its faces their tracking ids
/// (``Annotate`` labels a tracked face `#0 0.93 id 4`), then encoded there.
/// Everything else on the picture was drawn on the worker; a still's
/// labels are drawn on the worker as before.
struct DeferredLabels: Sendable {
    /// The annotated picture without its labels.
    let image: RGBImage
    /// The stage whose labels these are (layers, sizes).
    let annotate: Annotate
    let encode: @Sendable (RGBImage) throws -> [UInt8]

    /// The encoded picture with the labels of `record` (the tracked record).
    func render(_ record: EntryRecord) throws -> [UInt8] {
        var image = image
        annotate.drawLabels(of: record, on: &image)
        return try encode(image)
    }
}
