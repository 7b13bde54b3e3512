import ImageCore
import RunFolders

/// One decoded frame of a video entry, as `VideoFrames` yields it: an
/// entry of its own, named by its video and its frame (``EntryName``).
public struct FrameEntry: Sendable {
    /// The video's position among its input's entries (the manifest's `index`).
    public let index: Int
    /// The video's name as stored and the frame's index in it.
    public let entryName: EntryName
    /// The frame's index in the video: 0-based, presentation order, counting every decoded frame.
    public let frame: Int
    /// Presentation time in seconds from the stream's start.
    public let time: Double
    /// Clockwise turn (0, 90, 180 or 270) that makes the frame upright: the container's display matrix.
    public let rotation: Int
    /// 8-bit RGB as stored (not yet turned).
    public let image: RGBImage
    /// The frame's pts in its stream's time base (what the video output is timed by).
    let pts: Int64
    /// The video it belongs to, when it can be written out again (nil for synthetic frames).
    let source: VideoSource?

    /// `clip.mp4#000123` (``EntryName/text``).
    public var name: String { entryName.text }

    /// The video's name as stored, `#` and the frame number appended (``EntryName/rawName``).
    public var rawName: [UInt8] { entryName.rawName }

    /// The EXIF orientation that turns the stored frame as `rotation` says
    /// (``Orient`` applies it as it does a still's): 90° clockwise is EXIF 6,
    /// 180° is 3, 270° is 8, anything else 1.
    var exifOrientation: Int {
        switch rotation {
        case 90: 6
        case 180: 3
        case 270: 8
        default: 1
        }
    }

    /// SHA-256 of what the stages see: the stored size, the rotation and the
    /// pixels (the stage cache and completion records' content hash).
    /// Decoding is bit-exact on every CPU kind, so equal frames hash equal.
    var contentHash: String {
        let hash = RunningSHA256()
        hash.update(Array("rgb \(image.width)x\(image.height) rotation \(rotation)\n".utf8))
        image.pixels.withUnsafeBytes { hash.update($0) }
        return hash.finalize().sha256
    }
}
