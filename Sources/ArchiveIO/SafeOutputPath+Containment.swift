#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Defence in depth for writers: whatever produced a relative path, check it
/// again lexically, and check the file system for symlinks, right before writing.
extension SafeOutputPath {
    /// `root/relative` after checking that `relative` stays below `root`
    /// lexically: non-empty, not absolute, no empty, `.` or `..` component,
    /// no NUL and no backslash.
    public static func join(root: String, relative: String) throws(OutputPathError) -> String {
        try checkLexically(relative)
        return root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    /// Throws when a component of `relative` that already exists below `root`
    /// is a symbolic link (a link planted in the output folder could send a
    /// write elsewhere). `root` itself may be a link: the user chose it.
    public static func checkNoSymbolicLinks(root: String, relative: String) throws(OutputPathError) {
        try checkLexically(relative)
        var current = root.hasSuffix("/") ? String(root.dropLast()) : root
        for component in relative.split(separator: "/") {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return }  // not there yet: nothing below can exist either
            if (info.st_mode & S_IFMT) == S_IFLNK {
                throw .symbolicLink(path: relative, component: current)
            }
        }
    }

    private static func checkLexically(_ relative: String) throws(OutputPathError) {
        guard !relative.isEmpty, !relative.hasPrefix("/") else { throw .notRelative(relative) }
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." || component.contains("\0") || component.contains("\\") {
                throw .unsafeComponent(path: relative, component: String(component))
            }
        }
    }
}
