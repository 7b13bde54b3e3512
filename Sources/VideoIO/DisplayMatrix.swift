import CFFmpeg

/// A video stream's display matrix (MP4's `tkhd` matrix, Matroska's projection): how a player turns, and
/// perhaps mirrors, the stored frames. Read once, on opening.
struct DisplayMatrix {
    /// 0, 90, 180 or 270: the clockwise turn that makes a frame upright (rounded to the nearest quarter turn).
    let rotation: Int
    /// True when the matrix flips the picture (its determinant is negative): a mirrored front camera's clip.
    /// A mirror and a turn cannot be told from the turn alone (a horizontal flip reads as a 180° turn).
    let mirrored: Bool

    /// The stream's matrix; no turn and no mirror when it has none (or an unusable one).
    init(of stream: UnsafeMutablePointer<AVStream>) {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else {
            self.init(rotation: 0, mirrored: false)
            return
        }
        let (counterclockwise, determinant) = data.withMemoryRebound(to: Int32.self, capacity: 9) { matrix in
            // The 2×2 part, in 16.16 fixed point: a b / c d at [0] [1] / [3] [4].
            (av_display_rotation_get(matrix),
             Double(matrix[0]) * Double(matrix[4]) - Double(matrix[1]) * Double(matrix[3]))
        }
        guard counterclockwise.isFinite else {
            self.init(rotation: 0, mirrored: determinant < 0)
            return
        }
        let quarters = Int((-counterclockwise / 90).rounded())
        self.init(rotation: ((quarters % 4) + 4) % 4 * 90, mirrored: determinant < 0)
    }

    init(rotation: Int, mirrored: Bool) {
        self.rotation = rotation
        self.mirrored = mirrored
    }
}
