import Crypto
#if canImport(Glibc)
import Glibc
#endif

/// Checking the outputs a completion record names. Records themselves (the
/// stage cache, completion records) are read with
/// ``OutputDirectory/contents(of:limit:)``, written with
/// ``OutputDirectory/write(_:to:)`` and removed with
/// ``OutputDirectory/removeItem(_:)``: all relative to the folder's handle,
/// one component at a time with `O_NOFOLLOW`, so a link planted anywhere on
/// the way (`DIR/.cache → /elsewhere`) is never followed and nothing
/// outside the folder is read as a record or removed.
extension OutputDirectory {
    /// Size and SHA-256 of a file, as a completion record keeps them for each output.
    package struct FileDigest: Equatable {
        package var bytes: Int
        package var sha256: String
    }

    /// Size and SHA-256 of the regular file at `relativePath`, read in one
    /// pass; nil when it is missing, a link, not a regular file or unreadable.
    package func digest(of relativePath: String) -> FileDigest? {
        withRegularFile(relativePath) { file, _ -> FileDigest? in
            var hasher = SHA256()
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let result = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress!, $0.count) }
                if result < 0, errno == EINTR { continue }
                guard result >= 0 else { return nil }
                if result == 0 { break }
                buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<result])) }
                total += result
            }
            return FileDigest(bytes: total, sha256: hasher.finalize().hexString)
        } ?? nil
    }
}
