/// A batch-1 NHWC tensor seen as rows: `height` rows of `width` pixels of
/// `channels` elements, floats or (a byte input, `FirstConvolution.int8`)
/// bytes. Rows are laid out `rowFloats` floats apart in the arena.
struct TensorRows: Sendable, Equatable {
    var height: Int
    var width: Int
    var channels: Int
    /// Whether the elements are bytes, four to a float's room.
    var bytes = false

    var rowFloats: Int { bytes ? (width * channels + 3) / 4 : width * channels }

    /// The same shape, whatever the element type.
    func hasShape(of other: TensorRows) -> Bool {
        height == other.height && width == other.width && channels == other.channels
    }
}
