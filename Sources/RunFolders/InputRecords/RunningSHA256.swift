import Crypto

/// A SHA-256 and a byte count fed piece by piece, as bytes go by (the
/// observer of a ``TarReader``, a folder's listing).
package final class RunningSHA256 {
    package init() {}

    private var hasher = SHA256()
    package private(set) var bytes: Int64 = 0

    package func update(_ piece: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: piece)
        bytes += Int64(piece.count)
    }

    package func update(_ piece: [UInt8]) {
        piece.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far; `bytes` overrides the count (a
    /// folder counts its files' bytes, not its listing's).
    package func finalize(bytes: Int64? = nil) -> InputDigest {
        InputDigest(sha256: hasher.finalize().hexString, bytes: bytes ?? self.bytes)
    }
}
