import ArchiveIO
import RunFolders

/// What a source yields, one header at a time, in archive order.
public enum SourceItem: Sendable {
    /// A regular file with its bytes.
    case entry(ArchiveEntry)
    /// A header that is not a regular file (directory, link, device…): counted and listed, not processed.
    case skipped(index: Int, name: String, reason: String)
    /// A regular file whose bytes cannot be read (an encrypted or
    /// unsupported zip member) while the input goes on: an error row.
    case unreadable(index: Int, name: String, rawName: [UInt8], reason: String)
    /// One frame of a video entry, already decoded (`VideoFrameReader`).
    case frame(FrameEntry)
}

/// Entries of one input (archive, folder, image file), read sequentially.
/// Throwing ends the input (e.g. a truncated tar): the error gets its
/// manifest row and the run goes on with the next input.
public protocol EntrySource {
    mutating func next() throws -> SourceItem?

    /// How far `next()` has read the input, for progress.
    var position: ReadPosition { get }

    /// The input's digest for run.json, once `next()` has returned nil or
    /// thrown: a source reads what is left of its bytes (an archive's
    /// trailer, all after damage) without delivering entries, so each input
    /// is read exactly once. Nil for sources without bytes of their own.
    mutating func digest() throws -> InputDigest?
}

extension EntrySource {
    public mutating func digest() throws -> InputDigest? { nil }
}

/// One input of a run: a display name (as the manifest shows it), the path
/// as the user gave it (run.json), and how to open its entries.
public struct RunInput: Sendable {
    public let name: String
    /// The file, folder or stream as given (`-` for standard input); nil for in-memory inputs.
    public let path: String?
    /// The input's size in bytes when known before reading it (an archive
    /// or image file; not a folder or a stream): its share of progress.
    public let byteSize: Int64?
    /// Opens the entries; videos among them are read as ``VideoReading`` says.
    let openSource: @Sendable (VideoReading) throws -> any EntrySource
    /// One image file (``imageFile(path:name:maxBytes:)``): its outputs are
    /// named by the input's name alone (`images/a.jpg.png`,
    /// `faces/a.jpg.json`), without a folder of their own.
    let isImageFile: Bool
    /// One file whose one entry is the file itself (an image, a video, a
    /// file refused by what it holds): its entries' names say so
    /// (``EntryName/isWholeInput``).
    let isOneFile: Bool
    /// A stream (standard input, a FIFO, a character device): a read may
    /// wait for its writer, so the runner places what is ready before each.
    let isStream: Bool

    public init(name: String, path: String?, byteSize: Int64? = nil, open: @escaping @Sendable () throws -> any EntrySource) {
        self.init(name: name, path: path, byteSize: byteSize, reading: { _ in try open() })
    }

    /// An input read by an ``EntryReader``, its videos decoded by ``VideoFrames``.
    init<Reader: EntryReader>(name: String, path: String?, byteSize: Int64?, isOneFile: Bool = false, isStream: Bool = false,
                              reader: @escaping @Sendable () throws -> Reader) {
        self.init(name: name, path: path, byteSize: byteSize, isOneFile: isOneFile, isStream: isStream) { reading in
            VideoFrames(try reader(), reading: reading)
        }
    }

    /// An input whose source reads videos (``VideoReading``).
    init(name: String, path: String?, byteSize: Int64?, isImageFile: Bool = false, isOneFile: Bool = false, isStream: Bool = false,
         reading: @escaping @Sendable (VideoReading) throws -> any EntrySource) {
        self.name = name
        self.path = path
        self.byteSize = byteSize
        self.isImageFile = isImageFile
        self.isOneFile = isImageFile || isOneFile
        self.isStream = isStream
        openSource = reading
    }

    /// The input's entries, videos read as `reading` says.
    package func open(_ reading: VideoReading = .standard) throws -> any EntrySource {
        try openSource(reading)
    }
}

/// Entries held in memory (tests, generated inputs).
public struct InMemoryEntrySource: EntrySource {
    private var items: [SourceItem]
    private var cursor = 0
    private let failure: (any Error & Sendable)?

    /// - Parameters:
    ///   - items: what the source yields, in order.
    ///   - failure: thrown after the last item, to simulate a truncated archive.
    public init(items: [SourceItem], failingWith failure: (any Error & Sendable)? = nil) {
        self.items = items
        self.failure = failure
    }

    public mutating func next() throws -> SourceItem? {
        guard cursor < items.count else {
            if let failure { throw failure }
            return nil
        }
        defer { cursor += 1 }
        return items[cursor]
    }

    public var position: ReadPosition {
        ReadPosition(unit: .entries, done: Int64(min(cursor, items.count)), total: Int64(items.count))
    }
}
