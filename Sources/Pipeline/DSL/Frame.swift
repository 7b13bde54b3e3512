import ImageCore

/// The value that flows between stages: pixels plus the entry's record
/// (everything the manifest and the JSON report). `P` is a ``Phase`` marker.
public struct Frame<P>: Sendable {
    /// The pixels at this point (upright after ``Orient``, annotated after ``Annotate``).
    public var image: RGBImage
    /// What is known about the entry: name, size, orientation, faces.
    public var record: EntryRecord
    /// The entry's bytes while still undecoded (empty after ``Decode``).
    public var encoded: [UInt8]
    /// A video frame's face labels, left by ``Annotate`` for the writer to
    /// draw once the frame's tracking ids are known (``DeferredLabels``).
    var deferredLabels: Annotate?

    public init(image: RGBImage, record: EntryRecord, encoded: [UInt8] = []) {
        self.image = image
        self.record = record
        self.encoded = encoded
    }

    /// The same data under another phase marker (for stages that advance the phase).
    public func advanced<Q>(to: Q.Type = Q.self) -> Frame<Q> {
        var frame = Frame<Q>(image: image, record: record, encoded: encoded)
        frame.deferredLabels = deferredLabels
        return frame
    }

    /// Marks kept faces for which `isRejected` holds as rejected with `reason`.
    /// Rejected faces stay in the record (and the manifest) but later per-face
    /// stages skip them.
    public mutating func reject(reason: String, where isRejected: (FaceRecord) throws -> Bool) rethrows {
        for i in record.faces.indices where record.faces[i].isKept {
            if try isRejected(record.faces[i]) { record.faces[i].rejection = reason }
        }
    }
}
