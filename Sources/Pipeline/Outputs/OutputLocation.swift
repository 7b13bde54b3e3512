import Foundation

/// Containment check for relative output paths (defence in depth behind the sanitizer).
enum OutputLocation {
    struct Escape: Error, CustomStringConvertible {
        let path: String
        var description: String { "refusing to write \(path): not a plain relative path inside the output folder" }
    }

    static func resolve(_ relativePath: String, under root: URL) throws -> URL {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"),
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !relativePath.utf8.contains(0) else {
            throw Escape(path: relativePath)
        }
        return root.appendingPathComponent(relativePath)
    }
}
