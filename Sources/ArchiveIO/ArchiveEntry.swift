/// One regular file read from an archive, whole, into memory.
public struct ArchiveEntry: Sendable {
    /// The archive's path as given by the user.
    public let archive: String
    /// Position among all headers of the archive (0-based, counting skipped ones),
    /// so duplicate names stay apart and results can be put back in archive order.
    public let index: Int
    /// The entry's name as stored (lossy UTF-8 for display).
    public let name: String
    /// The name's raw bytes as stored in the header.
    public let rawName: [UInt8]
    public let data: [UInt8]

    public init(archive: String, index: Int, name: String, rawName: [UInt8], data: [UInt8]) {
        self.archive = archive
        self.index = index
        self.name = name
        self.rawName = rawName
        self.data = data
    }
}
