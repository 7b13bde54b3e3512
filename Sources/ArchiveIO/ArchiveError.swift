/// Everything that can go wrong while reading or writing an archive.
///
/// Every case names the archive path; damage reports also say where the
/// damage was found, so a user can tell a truncated download from a bad entry.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The archive file could not be opened (missing, a directory, no permission…).
    case cannotOpen(archive: String, reason: String)
    /// The file is readable but is not an archive in a supported format
    /// (tar, GNU tar, ustar, pax, zip; optionally gzip/bzip2/xz/zstd compressed).
    case unsupportedFormat(archive: String, reason: String)
    /// Reading stopped at damage (truncation, corrupt header, broken compressed
    /// stream). Every entry before the damage has already been delivered.
    case damaged(ArchiveDamage)
    /// Writing an archive failed.
    case cannotWrite(archive: String, reason: String)
    /// The options are out of range.
    case invalidOptions(String)
    /// `TarWriter` was used after `finish()`.
    case writerFinished(archive: String)

    public var description: String {
        switch self {
        case .cannotOpen(let archive, let reason):
            "\(archive): cannot open archive: \(reason)"
        case .unsupportedFormat(let archive, let reason):
            "\(archive): not a supported archive (tar, tar.gz, tar.bz2, tar.xz, tar.zst, zip): \(reason)"
        case .damaged(let damage):
            damage.description
        case .cannotWrite(let archive, let reason):
            "\(archive): cannot write archive: \(reason)"
        case .invalidOptions(let reason):
            "invalid archive options: \(reason)"
        case .writerFinished(let archive):
            "\(archive): archive already finished; no more entries can be added"
        }
    }
}

/// Where and how an archive turned out to be damaged.
public struct ArchiveDamage: Sendable, Equatable, CustomStringConvertible {
    /// The archive's path as given by the user.
    public let archive: String
    /// Index of the header being read when the damage was found (0-based, the
    /// same numbering as `ArchiveEntry.index`); all lower indices were delivered.
    public let entryIndex: Int
    /// The entry's name when its header was intact and the damage is in its data.
    public let entryName: String?
    /// Byte offset, in the uncompressed tar stream, of the last header read
    /// intact: the damaged entry's own header when the damage is in its data.
    public let headerOffset: Int64
    /// Uncompressed bytes consumed when the damage was found.
    public let streamOffset: Int64
    /// Bytes read from the file itself (differs from `streamOffset` for compressed archives).
    public let fileOffset: Int64
    /// libarchive's message.
    public let message: String

    public init(archive: String, entryIndex: Int, entryName: String?, headerOffset: Int64, streamOffset: Int64, fileOffset: Int64, message: String) {
        self.archive = archive
        self.entryIndex = entryIndex
        self.entryName = entryName
        self.headerOffset = headerOffset
        self.streamOffset = streamOffset
        self.fileOffset = fileOffset
        self.message = message
    }

    public var description: String {
        let place = entryName.map { "in the data of entry #\(entryIndex) \"\($0)\"" } ?? "in the header of entry #\(entryIndex)"
        let file = fileOffset == streamOffset ? "" : " (byte \(fileOffset) of the compressed file)"
        return "\(archive): damaged archive \(place), at byte \(streamOffset)\(file), last intact header at byte \(headerOffset): \(message)"
    }
}
