/// An entry's name, built once where its input is read and never parsed
/// back: the member as its input stores it (a tar member, a folder's
/// relative path, the file given as an input) and, for a decoded video
/// frame, the frame's index in that member's video. Every text form of an
/// entry's name (the manifest's `entry`, the JSON lines' `file`, a
/// completion record's key, output names) is a function of it.
public struct EntryName: Sendable, Hashable {
    /// The member's name as stored: bytes, not necessarily UTF-8.
    public let member: [UInt8]
    /// The frame's index in the member's video (0-based, presentation
    /// order, counting every decoded frame); nil for a still.
    public let frame: Int?
    /// Whether the member is the input itself (an image or video file given
    /// as an input), which a JSON line names by the input's name alone.
    public let isWholeInput: Bool

    public init(member: [UInt8], frame: Int? = nil, isWholeInput: Bool = false) {
        self.member = member
        self.frame = frame
        self.isWholeInput = isWholeInput
    }

    /// The member as stored, and for a frame `#` and the frame index with at
    /// least 6 digits (`clip.mp4#000123`, `clip.mp4#1234567`): what outputs are named by.
    public var rawName: [UInt8] {
        guard let frame else { return member }
        let digits = String(frame)
        return member + Array(("#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits).utf8)
    }

    /// ``rawName`` as lossy UTF-8: the manifest's `entry` (`clip.mp4#000123`).
    public var text: String { String(decoding: rawName, as: UTF8.self) }

    /// The member alone as lossy UTF-8 (a frame's video: `clip.mp4`).
    public var memberText: String { String(decoding: member, as: UTF8.self) }

    /// A JSON line's `file` (`facepipe detect`): the input's name for the
    /// input itself (an image file; a video file's frame on a line that
    /// gives the frame in fields of its own, `framed`), else
    /// `<input>#<entry>` (an error line names a video file's frame
    /// `<input>#<file name>#<frame>`).
    package func jsonFile(input: String, framed: Bool) -> String {
        isWholeInput && (frame == nil || framed) ? input : input + "#" + text
    }

    /// A completion record's key: `<input number>/<index>`, a frame's
    /// `<input number>/<index>#<frame>` (the frame unpadded).
    package static func completionKey(input: Int, index: Int, frame: Int?) -> String {
        "\(input)/\(index)" + (frame.map { "#\($0)" } ?? "")
    }
}
