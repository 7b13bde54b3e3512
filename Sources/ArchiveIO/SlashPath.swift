/// The parent folder and the last name of a `/`-separated path, split at
/// its last `/`, for paths read from files facepipe did not write itself
/// (a shard's manifest and file list in `facepipe merge`).
///
/// Foundation's `NSString.deletingLastPathComponent` and
/// `lastPathComponent` trap on one-character paths on Linux
/// (`deletingLastPathComponent` on a lone non-ASCII character such as
/// U+FFFD, which an invalid UTF-8 byte in a manifest decodes to;
/// `lastPathComponent` on any), so a planted manifest could stop the merge
/// with a crash instead of an error. These give Foundation's results for
/// every path on which it does not trap: trailing `/`s are ignored, a name
/// directly below `/` has the parent `/`, a path without `/` has the parent "".
package enum SlashPath {
    /// Everything before the last name (`a/b/c` → `a/b`, `a` → "", `/a` → `/`, `/` → `/`, `a//b` → `a`).
    package static func parent(of path: String) -> String {
        let (slash, nameEnd) = split(path)
        if nameEnd == path.utf8.startIndex { return path.isEmpty ? "" : "/" }
        guard let slash else { return "" }
        let bytes = path.utf8
        var end = slash
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash_ { end = bytes.index(before: end) }
        return end == bytes.startIndex ? "/" : String(path[..<end])
    }

    /// The last name (`a/b/c` → `c`, `a/b/` → `b`, `a` → `a`, `/` → `/`, "" → "").
    package static func lastComponent(of path: String) -> String {
        let (slash, end) = split(path)
        if end == path.utf8.startIndex { return path.isEmpty ? "" : "/" }
        guard let slash else { return String(path[..<end]) }
        return String(path[path.utf8.index(after: slash)..<end])
    }

    private static let slash_ = UInt8(ascii: "/")

    /// The last `/` before the last name (nil: none), and where that name ends (before any trailing `/`s).
    private static func split(_ path: String) -> (slash: String.Index?, end: String.Index) {
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash_ { end = bytes.index(before: end) }
        return (bytes[..<end].lastIndex(of: slash_), end)
    }
}
