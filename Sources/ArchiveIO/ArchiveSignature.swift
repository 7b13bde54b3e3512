/// What an archive file is, from its first bytes (never from its name): a
/// tar, plain or under one of the compressions ``TarWriter`` can write
/// back, or something a tar of the same kind cannot be written for.
public enum ArchiveSignature: Sendable, Equatable {
    /// A tar stream under `compression` (`.none`: a plain tar, or bytes no
    /// other signature matches, which the reader then judges).
    case tar(compression: TarWriter.Compression)
    /// A zip file.
    case zip
    /// A compression libarchive reads and ``TarWriter`` does not write (lz4, lzip, compress, lzma).
    case unwritableCompression(String)

    /// Bytes to read for ``init(prefix:)``.
    public static let prefixLength = 6

    /// The signature that `prefix` (the file's first bytes) starts with.
    public init(prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(Self.prefixLength))
        func starts(_ magic: [UInt8]) -> Bool { bytes.starts(with: magic) }
        if starts([0x1F, 0x8B]) {
            self = .tar(compression: .gzip)
        } else if starts([0x42, 0x5A, 0x68]) {
            self = .tar(compression: .bzip2)
        } else if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            self = .tar(compression: .xz)
        } else if starts([0x28, 0xB5, 0x2F, 0xFD]) {
            self = .tar(compression: .zstd)
        } else if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            self = .zip
        } else if starts([0x04, 0x22, 0x4D, 0x18]) {
            self = .unwritableCompression("lz4")
        } else if starts(Array("LZIP".utf8)) {
            self = .unwritableCompression("lzip")
        } else if starts([0x1F, 0x9D]) {
            self = .unwritableCompression("compress (.Z)")
        } else if starts([0x5D, 0x00, 0x00]) {
            self = .unwritableCompression("lzma")
        } else {
            self = .tar(compression: .none)
        }
    }
}
