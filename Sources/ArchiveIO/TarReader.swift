import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams the members of a tar (or zip) archive, one entry in memory at a time.
///
/// Reads `.tar`, `.tar.gz`, `.tar.bz2`, `.tar.xz`, `.tar.zst` (compression is
/// detected from the bytes, not the file name), GNU tar, ustar, pax and zip.
/// Each call to `next()` reads one header; a regular file is read whole into
/// memory (at most `Options.maxEntryBytes`) and delivered as `.file`, anything
/// else (directory, link, device, too large) as `.skipped` with a reason,
/// without reading its data into memory. Nothing else is buffered, so memory
/// stays at one entry plus libarchive's read block.
///
/// A `TarReader` owns its libarchive handle and is not `Sendable`: create and
/// drive it from one task (the pipeline's single producer). For `for try await`
/// use `TarReader.items(path:options:)`.
///
/// ```swift
/// let reader = try TarReader(path: "photos.tar.gz")
/// while let item = try reader.next() {
///     if case .file(let entry) = item { process(entry.data) }
/// }
/// ```
public final class TarReader {
    /// Limits and buffer sizes.
    public struct Options: Sendable, Equatable {
        /// Regular files larger than this are skipped (`.tooLarge`) without being read into memory.
        public var maxEntryBytes: Int
        /// Bytes libarchive reads from the file at a time.
        public var blockSize: Int

        public init(maxEntryBytes: Int = 512 << 20, blockSize: Int = 64 << 10) {
            self.maxEntryBytes = maxEntryBytes
            self.blockSize = blockSize
        }
    }

    /// The archive's path as given by the user.
    public let path: String
    public let options: Options

    /// The owned `struct archive *`, freed in `deinit` (before `file`, which it reads through).
    private let handle: OpaquePointer
    private let file: ArchiveInputFile
    private var nextIndex = 0
    /// Uncompressed offset of the last header read successfully.
    private var lastHeaderOffset: Int64 = 0
    private var isFinished = false

    /// Opens `path` for reading. Throws `.cannotOpen` when the file cannot be
    /// opened and `.invalidOptions` for non-positive limits. Whether the bytes
    /// are an archive at all is found out by the first `next()`.
    ///
    /// - Parameter observer: sees every byte of the file once, in order, as
    ///   it is read (``readToEnd()`` passes on the rest): a digest of the
    ///   input without reading it a second time.
    public convenience init(path: String, options: Options = Options(),
                            observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        try Self.check(options, path: path)
        try self.init(file: ArchiveInputFile(path: path, blockSize: options.blockSize, observer: observer), options: options)
    }

    /// Reads the archive from `fileDescriptor` (standard input, a pipe, a
    /// FIFO or a file), from its current offset. The descriptor stays open:
    /// the caller closes it after the reader is gone. `name` stands for the
    /// input in entries and errors.
    public convenience init(fileDescriptor: Int32, name: String, options: Options = Options(),
                            observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        try Self.check(options, path: name)
        try self.init(file: ArchiveInputFile(descriptor: fileDescriptor, ownsDescriptor: false, path: name,
                                             blockSize: options.blockSize, observer: observer),
                      options: options)
    }

    private static func check(_ options: Options, path: String) throws(ArchiveError) {
        guard options.maxEntryBytes >= 0 else { throw .invalidOptions("maxEntryBytes must be ≥ 0, got \(options.maxEntryBytes)") }
        guard options.blockSize > 0 else { throw .invalidOptions("blockSize must be > 0, got \(options.blockSize)") }
    }

    private init(file: ArchiveInputFile, options: Options) throws(ArchiveError) {
        let path = file.path
        guard let handle = archive_read_new() else { throw .cannotOpen(archive: path, reason: "libarchive could not allocate a reader") }
        self.path = path
        self.options = options
        self.handle = handle
        self.file = file
        archive_read_support_filter_all(handle)
        archive_read_support_format_tar(handle)
        archive_read_support_format_gnutar(handle)
        archive_read_support_format_zip(handle)
        // A zero-byte file is an empty archive, as for GNU tar.
        archive_read_support_format_empty(handle)
        let status = LibArchiveStatus(file.openArchive(handle))
        guard status.succeeded else {
            // Opening reads the first block to recognise the format.
            if LibArchiveStatus.isUnrecognizedFormat(handle) {
                throw .unsupportedFormat(archive: path, reason: LibArchiveStatus.message(of: handle))
            }
            throw .cannotOpen(archive: path, reason: LibArchiveStatus.message(of: handle))
        }
    }

    deinit {
        archive_read_free(handle)
    }

    /// The next header of the archive, or nil after the last one.
    ///
    /// Throws `.unsupportedFormat` when the file is not an archive and
    /// `.damaged` at a truncated or corrupt spot; every entry before it was
    /// delivered. After an error (or the end) further calls return nil.
    public func next() throws(ArchiveError) -> ArchiveItem? {
        guard !isFinished else { return nil }
        // Names are converted by libarchive as headers are read and looked at.
        return try UTF8Locale.run { () throws(ArchiveError) -> ArchiveItem? in try readNextItem() }
    }

    private func readNextItem() throws(ArchiveError) -> ArchiveItem? {
        var entryPointer: OpaquePointer?
        let status = LibArchiveStatus(archive_read_next_header(handle, &entryPointer))
        let index = nextIndex
        switch status {
        case .endOfArchive:
            isFinished = true
            return nil
        case .ok, .warning:
            break
        case .retry, .failed, .fatal:
            isFinished = true
            if index == 0 && LibArchiveStatus.isUnrecognizedFormat(handle) {
                throw .unsupportedFormat(archive: path, reason: LibArchiveStatus.message(of: handle))
            }
            throw damage(at: index, entryName: nil)
        }
        guard let entry = entryPointer else {
            isFinished = true
            throw damage(at: index, entryName: nil)
        }
        nextIndex += 1
        lastHeaderOffset = max(archive_read_header_position(handle), 0)
        let rawName = Self.rawName(of: entry)
        let name = String(decoding: rawName, as: UTF8.self)
        let kind = Self.kind(of: entry)
        guard kind == .regularFile else {
            let target = (archive_entry_hardlink(entry) ?? archive_entry_symlink(entry)).map { String(cString: $0) }
            return .skipped(SkippedEntry(archive: path, index: index, name: name, rawName: rawName, kind: kind, reason: .notARegularFile, linkTarget: target))
        }
        if archive_entry_is_data_encrypted(entry) != 0 {
            // Skipping its data is all libarchive can do; the archive goes on.
            return .skipped(SkippedEntry(archive: path, index: index, name: name, rawName: rawName, kind: .regularFile,
                                         reason: .unreadable("encrypted member (facepipe reads no encrypted zip members)")))
        }
        let declaredSize: Int64? = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        if let declaredSize, declaredSize < 0 {
            isFinished = true
            throw damage(at: index, entryName: name, message: "header states a negative size (\(declaredSize))")
        }
        if let declaredSize, declaredSize > Int64(options.maxEntryBytes) {
            return .skipped(SkippedEntry(archive: path, index: index, name: name, rawName: rawName, kind: .regularFile, reason: .tooLarge(size: declaredSize, limit: options.maxEntryBytes)))
        }
        switch try readData(declaredSize: declaredSize.map { Int($0) }, index: index, name: name) {
        case .complete(let data):
            return .file(ArchiveEntry(archive: path, index: index, name: name, rawName: rawName, data: data))
        case .skipped(let reason):
            return .skipped(SkippedEntry(archive: path, index: index, name: name, rawName: rawName, kind: .regularFile, reason: reason))
        }
    }

    /// Reads the rest of the file (what follows the archive's end, or all
    /// that follows damage) through the observer, without delivering
    /// entries, so the observer has seen every byte of the file. Call it
    /// after `next()` returned nil or threw. A stream is read at most
    /// `Options.maxEntryBytes` further (an input that never ends, such as
    /// `/dev/zero`, ends the run's reading there with an error, not a hang).
    public func readToEnd() throws(ArchiveError) {
        try file.readToEnd(streamLimit: options.maxEntryBytes)
    }

    /// Bytes of the file read so far, in file order, as the read callback
    /// passed them on (compressed bytes for a compressed archive): progress
    /// against ``fileSize``.
    public var bytesRead: Int64 { file.observedBytes }

    /// The file's size in bytes when it is a regular file, known before
    /// reading; nil for a pipe, FIFO or terminal (a stream has no total).
    public var fileSize: Int64? { file.size }

    /// Bytes read from the file so far (compressed bytes for a compressed archive).
    /// Tests use it to check that the reader never reads far ahead of the entry it delivers.
    package var fileBytesRead: Int64 { archive_filter_bytes(handle, -1) }

    // MARK: - Entry data

    private enum DataResult {
        case complete([UInt8])
        case skipped(SkippedEntry.Reason)
    }

    /// Reads the current entry's data. A stated size is read into one exactly
    /// sized buffer; an unstated size grows in block steps up to the limit.
    private func readData(declaredSize: Int?, index: Int, name: String) throws(ArchiveError) -> DataResult {
        var failure: LibArchiveStatus?
        var data: [UInt8]
        if let size = declaredSize {
            var endedEarly = false
            data = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var filled = 0
                while filled < size {
                    let result = archive_read_data(handle, buffer.baseAddress! + filled, size - filled)
                    if let status = LibArchiveStatus(byteCountOrStatus: result) {
                        failure = status
                        break
                    }
                    if result == 0 {
                        endedEarly = true
                        break
                    }
                    filled += result
                }
                count = filled
            }
            if failure == nil && endedEarly {
                isFinished = true
                throw damage(at: index, entryName: name, message: "entry data ended after \(data.count) of \(size) bytes")
            }
        } else {
            data = []
            let chunk = min(options.blockSize, options.maxEntryBytes + 1)
            while true {
                let before = data.count
                var result = 0
                data.append(contentsOf: repeatElement(0, count: chunk))
                data.withUnsafeMutableBufferPointer { buffer in
                    result = archive_read_data(handle, buffer.baseAddress! + before, chunk)
                }
                if let status = LibArchiveStatus(byteCountOrStatus: result) {
                    data.removeLast(chunk)
                    failure = status
                    break
                }
                data.removeLast(chunk - result)
                if result == 0 { break }
                if data.count > options.maxEntryBytes {
                    // The rest is skipped by the next archive_read_next_header.
                    return .skipped(.tooLarge(size: nil, limit: options.maxEntryBytes))
                }
            }
        }
        switch failure {
        case nil, .ok?, .warning?, .endOfArchive?:
            return .complete(data)
        case .retry?, .failed?:
            return .skipped(.unreadable(LibArchiveStatus.message(of: handle)))
        case .fatal?:
            isFinished = true
            throw damage(at: index, entryName: name)
        }
    }

    private func damage(at index: Int, entryName: String?, message: String? = nil) -> ArchiveError {
        .damaged(ArchiveDamage(
            archive: path, entryIndex: index, entryName: entryName,
            headerOffset: entryName == nil ? lastHeaderOffset : max(archive_read_header_position(handle), lastHeaderOffset),
            streamOffset: archive_filter_bytes(handle, 0),
            fileOffset: archive_filter_bytes(handle, -1),
            message: message ?? LibArchiveStatus.message(of: handle)))
    }

    // MARK: - Headers

    /// The name's bytes as stored: the locale-independent multibyte form
    /// libarchive keeps for ustar/GNU names, else its UTF-8 form (pax, zip).
    private static func rawName(of entry: OpaquePointer) -> [UInt8] {
        if let bytes = archive_entry_pathname(entry) ?? archive_entry_pathname_utf8(entry) {
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: strlen(bytes)))
        }
        return []
    }

    private static func kind(of entry: OpaquePointer) -> SkippedEntry.Kind {
        if archive_entry_hardlink(entry) != nil { return .hardLink }
        switch UInt32(archive_entry_filetype(entry)) & facepipe_ae_ifmt {
        case facepipe_ae_ifreg: return .regularFile
        case facepipe_ae_ifdir: return .directory
        case facepipe_ae_iflnk: return .symbolicLink
        case facepipe_ae_ifchr: return .characterDevice
        case facepipe_ae_ifblk: return .blockDevice
        case facepipe_ae_ififo: return .fifo
        case facepipe_ae_ifsock: return .socket
        default: return .other
        }
    }
}
