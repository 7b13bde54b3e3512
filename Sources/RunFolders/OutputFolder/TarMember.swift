/// Where an output file sits in a finished `--output-tar` tar, as its
/// completion record keeps it: the tar's number, the offsets of the
/// member's header and contents, and the SHA-256 of the header bytes (a pax
/// record's included). With the file's size and SHA-256 (the record's
/// ``CompletionRecord/Output``), every byte of the member is accounted
/// for: header, contents, and the zeros padding them to 512 bytes.
/// ``FinishedTars`` checks a member by positioned reads of those bytes
/// alone, never reading the rest of the tar.
package struct TarMember: Codable, Sendable, Equatable {
    /// The tar's number (``OutputLayout/outputTarName(_:)``).
    package var shard: Int
    /// The offset of the member's first header byte in the tar.
    package var header: Int
    /// The offset of its contents.
    package var data: Int
    package var headerSHA256: String

    /// The offset just past the member's padded contents of `bytes` bytes:
    /// where the next member (or the end-of-archive blocks) begins.
    package func end(bytes: Int) -> Int { data + Self.padded(bytes) }

    /// `bytes` rounded up to whole 512-byte blocks.
    package static func padded(_ bytes: Int) -> Int { (bytes + 511) / 512 * 512 }

    package init(shard: Int, header: Int, data: Int, headerSHA256: String) {
        self.shard = shard
        self.header = header
        self.data = data
        self.headerSHA256 = headerSHA256
    }
}
