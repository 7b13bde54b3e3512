import ImageCore

/// A video frame's picture, finished by the run's encode step
/// (``EntryOutputs/encoded()``): its face labels are drawn there, after the
/// in-order passes gave its faces their tracking ids (``Annotate`` labels a
/// tracked face `#0 0.93 id 4`), then it goes into the video's output
/// (``VideoOutput``) or is encoded as an image.
/// Everything else on the picture was drawn on the worker; a still's
/// picture is finished on the worker as before.
package struct DeferredLabels: Sendable {
    /// The picture without its labels.
    package let image: RGBImage
    /// The stage whose labels these are (layers, sizes); nil: no labels.
    let annotate: Annotate?
    /// The pipeline's image format (when the frame is written as an image).
    let encode: @Sendable (RGBImage) throws -> [UInt8]

    /// The picture with the labels of `record` (the tracked record).
    package func drawn(_ record: EntryRecord) -> RGBImage {
        guard let annotate else { return image }
        var image = image
        annotate.drawLabels(of: record, on: &image)
        return image
    }

    /// The encoded picture with the labels of `record`.
    package func render(_ record: EntryRecord) throws -> [UInt8] {
        try encode(drawn(record))
    }
}
