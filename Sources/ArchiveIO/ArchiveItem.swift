/// What `TarReader.next()` yields for each header of an archive: a regular
/// file with its bytes, or a note saying why an entry was not delivered.
public enum ArchiveItem: Sendable {
    case file(ArchiveEntry)
    case skipped(SkippedEntry)

    /// The header's position in the archive (0-based, counting both cases).
    public var index: Int {
        switch self {
        case .file(let entry): entry.index
        case .skipped(let skipped): skipped.index
        }
    }
}

/// An archive member that was not delivered as a file.
public struct SkippedEntry: Sendable, Equatable {
    /// What a header describes.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case regularFile = "file"
        case directory
        case symbolicLink = "symlink"
        case hardLink = "hardlink"
        case characterDevice = "character-device"
        case blockDevice = "block-device"
        case fifo
        case socket
        case other
    }

    /// Why an entry was skipped.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// Only regular files are delivered (directories, links, devices… are not).
        case notARegularFile
        /// The entry is larger than `TarReader.Options.maxEntryBytes`; it was
        /// skipped without being read into memory. `size` is nil when the header
        /// did not state a size and the limit was reached while reading.
        case tooLarge(size: Int64?, limit: Int)
        /// libarchive could not read this entry's data but the archive goes on
        /// (e.g. an encrypted or unsupported zip member).
        case unreadable(String)

        public var description: String {
            switch self {
            case .notARegularFile: "not a regular file"
            case .tooLarge(let size?, let limit): "entry of \(size) bytes exceeds the limit of \(limit) bytes"
            case .tooLarge(nil, let limit): "entry exceeds the limit of \(limit) bytes"
            case .unreadable(let message): "unreadable entry: \(message)"
            }
        }
    }

    /// The archive's path as given by the user.
    public let archive: String
    /// Position among all headers of the archive (0-based).
    public let index: Int
    /// The entry's name as stored (lossy UTF-8 for display).
    public let name: String
    /// The name's raw bytes as stored.
    public let rawName: [UInt8]
    public let kind: Kind
    public let reason: Reason
    /// Target of a symbolic or hard link, when the header names one.
    public let linkTarget: String?

    public init(archive: String, index: Int, name: String, rawName: [UInt8], kind: Kind, reason: Reason, linkTarget: String? = nil) {
        self.archive = archive
        self.index = index
        self.name = name
        self.rawName = rawName
        self.kind = kind
        self.reason = reason
        self.linkTarget = linkTarget
    }
}
