#if canImport(Glibc)
import Glibc
#endif

/// A temporary file of the output folder that someone else fills piece by
/// piece (``OutputDirectory/streamedFile(_:)``): renamed over its name by
/// ``commit()``, removed by ``discard()`` (or when let go of without either).
package final class StreamedFile {
    /// Open for reading and writing; valid until `commit()` or `discard()`.
    package let descriptor: Int32
    private let parent: Int32
    private let ownsParent: Bool
    private let temporary: String
    private let name: String
    /// The final path, for messages.
    package let path: String
    private var done = false

    init(descriptor: Int32, parent: Int32, ownsParent: Bool, temporary: String, name: String, path: String) {
        self.descriptor = descriptor
        self.parent = parent
        self.ownsParent = ownsParent
        self.temporary = temporary
        self.name = name
        self.path = path
    }

    /// Closes the file and renames it over its name (a link there is replaced, never written through).
    package func commit() throws {
        guard !done else { return }
        done = true
        defer { if ownsParent { close(parent) } }
        if close(descriptor) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw OutputDirectory.Failure(path: path, reason: String(cString: strerror(code)))
        }
        if renameat(parent, temporary, parent, name) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw OutputDirectory.Failure(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Closes and removes the temporary file.
    package func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        unlinkat(parent, temporary, 0)
        if ownsParent { close(parent) }
    }

    deinit { discard() }
}
