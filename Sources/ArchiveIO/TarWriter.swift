import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a tar archive (pax-restricted: plain ustar headers, pax records only
/// for names ustar cannot hold), optionally compressed, with deterministic bytes.
///
/// Every header has mtime 0 (unless given), uid/gid 0, no user or group names,
/// mode 0644 for files and 0755 for directories, so the same calls always give
/// the same file. Bytes go to `<path>.partial`, which `finish()` renames to
/// `path`; a writer dropped without `finish()` removes the partial file.
/// Or bytes go to a descriptor the caller opened (and renames, and closes):
/// `init(fileDescriptor:name:compression:)`.
/// Not `Sendable`: one writer per task.
public final class TarWriter {
    /// The compression filter applied to the tar stream.
    public enum Compression: String, Sendable, CaseIterable {
        case none, gzip, bzip2, xz, zstd
    }

    /// The archive's final path.
    public let path: String
    public let compression: Compression

    /// The owned `struct archive *` (write side), freed in `deinit`.
    private let handle: OpaquePointer
    /// The file this writer created and renames to `path` in `finish()`;
    /// nil when it writes to a caller's descriptor.
    private let partialPath: String?
    private var isFinished = false
    private var renamed = false

    /// Creates `<path>.partial` and prepares the tar stream.
    public convenience init(path: String, compression: Compression = .none) throws(ArchiveError) {
        try self.init(path: path, partialPath: path + ".partial", compression: compression) { handle, partial throws(ArchiveError) in
            try Self.check(archive_write_open_filename(handle, partial), handle: handle, path: path)
        }
    }

    /// Writes the tar stream to `fileDescriptor`, which the caller opened
    /// (for example with `O_NOFOLLOW | O_EXCL` relative to a folder it
    /// trusts) and closes, and renames if it wants; `name` stands for the
    /// archive in errors. `finish()` renames nothing.
    /// `unbuffered`: each header and file's bytes reach the descriptor as
    /// they are added (the same bytes, in smaller writes), so a member can be
    /// read back from the file as soon as ``add(path:data:modificationTime:)``
    /// returns its ``Placement``.
    public convenience init(fileDescriptor: Int32, name: String, compression: Compression = .none,
                            unbuffered: Bool = false) throws(ArchiveError) {
        try self.init(path: name, partialPath: nil, compression: compression) { handle, _ throws(ArchiveError) in
            if unbuffered { try Self.check(archive_write_set_bytes_per_block(handle, 0), handle: handle, path: name) }
            try Self.check(archive_write_open_fd(handle, fileDescriptor), handle: handle, path: name)
        }
    }

    private init(path: String, partialPath: String?, compression: Compression,
                 open: (OpaquePointer, String) throws(ArchiveError) -> Void) throws(ArchiveError) {
        guard let handle = archive_write_new() else { throw .cannotWrite(archive: path, reason: "libarchive could not allocate a writer") }
        self.path = path
        self.compression = compression
        self.handle = handle
        self.partialPath = partialPath
        do throws(ArchiveError) {
            try check(archive_write_set_format_pax_restricted(handle))
            switch compression {
            case .none: break
            case .gzip:
                try check(archive_write_add_filter_gzip(handle))
                // No timestamp in the gzip header, for reproducible bytes.
                try check(archive_write_set_filter_option(handle, "gzip", "timestamp", nil))
            case .bzip2: try check(archive_write_add_filter_bzip2(handle))
            case .xz: try check(archive_write_add_filter_xz(handle))
            case .zstd: try check(archive_write_add_filter_zstd(handle))
            }
            try open(handle, partialPath ?? path)
        } catch {
            isFinished = true
            throw error
        }
    }

    deinit {
        archive_write_free(handle)
        if !renamed, let partialPath { unlink(partialPath) }
    }

    /// Where a member went in the tar stream (before compression): the
    /// offset of its first header byte (a pax record's header, when the
    /// name needs one) and of its contents, which the padding to 512 bytes follows.
    public struct Placement: Sendable, Equatable {
        public let header: Int
        public let data: Int
    }

    /// Adds a regular file (mode 0644) holding `data`.
    @discardableResult
    public func add(path name: String, data: [UInt8], modificationTime: Int64 = 0) throws(ArchiveError) -> Placement {
        guard !isFinished else { throw .writerFinished(archive: path) }
        // The previous member's padding first, so the count is where this member's header begins.
        try check(archive_write_finish_entry(handle))
        let header = Int(archive_filter_bytes(handle, 0))
        try writeEntry(name: name, type: facepipe_ae_ifreg, permissions: 0o644, size: data.count, modificationTime: modificationTime) { entry in }
        let start = Int(archive_filter_bytes(handle, 0))
        try writeData(data, name: name)
        return Placement(header: header, data: start)
    }

    /// Adds a regular file (mode 0644) holding `data` under the name's bytes
    /// exactly as another archive stored them (``ArchiveEntry/rawName``),
    /// valid UTF-8 or not.
    public func add(rawPath: [UInt8], data: [UInt8]) throws(ArchiveError) {
        let name = String(decoding: rawPath, as: UTF8.self)
        guard !rawPath.isEmpty, !rawPath.contains(0) else {
            throw .cannotWrite(archive: path, reason: "entry name \(name.debugDescription) is empty or contains NUL")
        }
        try writeEntry(name: name, type: facepipe_ae_ifreg, permissions: 0o644, size: data.count, modificationTime: 0) { entry in
            (rawPath + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { archive_entry_copy_pathname(entry, $0.baseAddress) }
            }
        }
        try writeData(data, name: name)
    }

    private func writeData(_ data: [UInt8], name: String) throws(ArchiveError) {
        var written = 0
        while written < data.count {
            var result = 0
            data.withUnsafeBytes { bytes in
                result = archive_write_data(handle, bytes.baseAddress! + written, data.count - written)
            }
            if let status = LibArchiveStatus(byteCountOrStatus: result) {
                try check(status)
            }
            if result == 0 { throw .cannotWrite(archive: path, reason: "libarchive accepted no bytes for \(name)") }
            written += result
        }
        try check(archive_write_finish_entry(handle))
    }

    /// Adds a directory entry (mode 0755).
    public func addDirectory(path name: String) throws(ArchiveError) {
        try writeEntry(name: name, type: facepipe_ae_ifdir, permissions: 0o755, size: 0, modificationTime: 0) { _ in }
        try check(archive_write_finish_entry(handle))
    }

    /// Adds a symbolic link `name` → `target`.
    public func addSymbolicLink(path name: String, target: String) throws(ArchiveError) {
        try writeEntry(name: name, type: facepipe_ae_iflnk, permissions: 0o777, size: 0, modificationTime: 0) { entry in
            archive_entry_copy_symlink(entry, target)
        }
        try check(archive_write_finish_entry(handle))
    }

    /// Adds a hard link `name` to the earlier entry `target`.
    public func addHardLink(path name: String, target: String) throws(ArchiveError) {
        try writeEntry(name: name, type: facepipe_ae_ifreg, permissions: 0o644, size: 0, modificationTime: 0) { entry in
            archive_entry_copy_hardlink(entry, target)
        }
        try check(archive_write_finish_entry(handle))
    }

    /// Adds a named pipe (FIFO) entry.
    public func addFIFO(path name: String) throws(ArchiveError) {
        try writeEntry(name: name, type: facepipe_ae_ififo, permissions: 0o644, size: 0, modificationTime: 0) { _ in }
        try check(archive_write_finish_entry(handle))
    }

    /// Writes the end-of-archive blocks, flushes compression and renames the
    /// partial file to `path`. No entries can be added afterwards.
    public func finish() throws(ArchiveError) {
        guard !isFinished else { throw .writerFinished(archive: path) }
        isFinished = true
        try UTF8Locale.run { () throws(ArchiveError) in try check(archive_write_close(handle)) }
        guard let partialPath else { return }
        guard rename(partialPath, path) == 0 else {
            throw .cannotWrite(archive: path, reason: "cannot rename \(partialPath): \(String(cString: strerror(errno)))")
        }
        renamed = true
    }

    // MARK: - Internals

    private func writeEntry(name: String, type: UInt32, permissions: UInt32, size: Int, modificationTime: Int64, configure: (OpaquePointer) -> Void) throws(ArchiveError) {
        guard !isFinished else { throw .writerFinished(archive: path) }
        guard !name.isEmpty, !name.utf8.contains(0) else {
            throw .cannotWrite(archive: path, reason: "entry name \(name.debugDescription) is empty or contains NUL")
        }
        guard UTF8Locale.isAvailable || (name.utf8.allSatisfy { $0 < 0x80 }) else {
            throw .cannotWrite(archive: path, reason: "the non-ASCII name \"\(name)\" needs a UTF-8 locale (C.UTF-8), which this system lacks")
        }
        guard let entry = archive_entry_new() else { throw .cannotWrite(archive: path, reason: "libarchive could not allocate an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_copy_pathname(entry, name)
        archive_entry_set_filetype(entry, type)
        archive_entry_set_perm(entry, permissions)
        archive_entry_set_size(entry, Int64(size))
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        configure(entry)
        // Names are passed as UTF-8 bytes; libarchive converts them for pax records under a UTF-8 locale.
        try UTF8Locale.run { () throws(ArchiveError) in try check(archive_write_header(handle, entry)) }
    }

    private func check(_ code: Int32) throws(ArchiveError) {
        try Self.check(code, handle: handle, path: path)
    }

    private static func check(_ code: Int32, handle: OpaquePointer, path: String) throws(ArchiveError) {
        guard LibArchiveStatus(code).succeeded else {
            throw .cannotWrite(archive: path, reason: LibArchiveStatus.message(of: handle))
        }
    }

    private func check(_ status: LibArchiveStatus) throws(ArchiveError) {
        guard status.succeeded else {
            throw .cannotWrite(archive: path, reason: LibArchiveStatus.message(of: handle))
        }
    }
}
