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
        let end = startOfSlashes(endingAt: slash, in: path.utf8)
        return end == path.utf8.startIndex ? "/" : String(path[..<end])
    }

    /// The last name (`a/b/c` → `c`, `a/b/` → `b`, `a` → `a`, `/` → `/`, "" → "").
    package static func lastComponent(of path: String) -> String {
        let (slash, end) = split(path)
        if end == path.utf8.startIndex { return path.isEmpty ? "" : "/" }
        guard let slash else { return String(path[..<end]) }
        return String(path[path.utf8.index(after: slash)..<end])
    }

    /// The last `/` before the last name (nil: none), and where that name ends (before any trailing `/`s).
    private static func split(_ path: String) -> (slash: String.Index?, end: String.Index) {
        let end = startOfSlashes(endingAt: path.utf8.endIndex, in: path.utf8)
        return (path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")), end)
    }

    /// Where the run of `/`s that ends at `end` starts (`end` when there is none).
    private static func startOfSlashes(endingAt end: String.Index, in bytes: String.UTF8View) -> String.Index {
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] == UInt8(ascii: "/") { start = bytes.index(before: start) }
        return start
    }
}
