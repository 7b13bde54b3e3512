import ImageCodecs
import ImageCore

/// Everything facepipe knows about one archive entry, except pixels.
/// Codable: this is what the stage cache stores and what outputs are made of.
public struct EntryRecord: Sendable, Hashable, Codable {
    /// The archive's file name (last path component) as the manifest shows it.
    public var archive: String
    /// The entry's name as stored in the archive (lossy UTF-8).
    public var entry: String
    /// Position among all headers of the archive (0-based).
    public var index: Int
    /// Upright size in pixels (0 until decoded).
    public var width: Int = 0
    public var height: Int = 0
    /// The EXIF orientation found in the file (1 when absent).
    public var exifOrientation: Int = 1
    /// Non-fatal notes (e.g. "alpha dropped", "corrupt EXIF ignored").
    public var warnings: [String] = []
    /// Detected faces in detection order, kept and rejected.
    public var faces: [FaceRecord] = []
    /// Whether a face detector ran (distinguishes `no_face` from "not asked").
    public var detectionRan: Bool = false
    /// The entry's image format, set by ``Decode`` on every run (nil before).
    /// Not in the coded form (stage cache, completion records): it is known
    /// from the entry's bytes, and ``WriteOutputs`` reads it to keep each
    /// image's own format in `--redacted-shards`.
    public var sourceFormat: ImageFormat?
    /// A video frame's index in its video (0-based, presentation order,
    /// counting every decoded frame); nil for a still image. Like `archive`
    /// and `entry`, part of the entry's identity, not of the coded form.
    public var frame: Int?
    /// A video frame's presentation time in seconds from the stream's start; nil for a still image.
    public var time: Double?

    enum CodingKeys: String, CodingKey {
        case archive, entry, index, width, height, exifOrientation, warnings, faces, detectionRan
    }

    public init(archive: String, entry: String, index: Int) {
        self.archive = archive
        self.entry = entry
        self.index = index
    }
}
