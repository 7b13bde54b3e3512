/// A batch-1 NHWC tensor seen as rows: `height` rows of `width` pixels of
/// `channels` floats.
struct TensorRows: Sendable, Equatable {
    var height: Int
    var width: Int
    var channels: Int

    var rowFloats: Int { width * channels }
}
