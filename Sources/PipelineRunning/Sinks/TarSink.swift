import ArchiveIO
import Foundation
import Pipeline
import RunFolders

/// Writes files into numbered tar archives (deterministic headers) in the
/// order given: `DIR/outputs/000000.tar`, `000001.tar`, … Each tar is
/// written as `<name>.partial`, created new with `O_NOFOLLOW | O_EXCL`
/// relative to the folder's handle (a stale partial file or a planted link
/// there is unlinked first, never written through), and renamed to its
/// name when it is closed: a tar under its own name is finished.
///
/// **Rollover.** Before an entry's first file (``beginEntry()``), when the
/// current tar already holds at least `shardBytes` (counting 512 bytes of
/// header and the contents padded to 512 bytes for each file), it is closed
/// and the next one begun. A tar holds whole entries and passes
/// `shardBytes` by at most one entry; where the tars split depends only on
/// the entries' files in order and `shardBytes`, never on time or worker
/// count.
///
/// **Resume.** With `keepIdentical` (`--resume`), an entry whose files a
/// finished tar holds intact (``CompletionStore`` checked them,
/// ``FinishedTars``) is not written again: ``resume(_:)`` counts its members
/// where they are. While every entry of tar N so far is such an entry, each
/// beginning where the one before ended, tar N is not opened for writing
/// at all, and when it closes holding nothing more than the finished file
/// does, that file is kept as it was (its inode and times stay). When an
/// entry of tar N must be written (recomputed: its member was damaged, or
/// it is new), the members kept so far are copied from the finished file
/// into `N.tar.partial` and the tar is written on from there; an entry
/// resumed after that has its contents read from the finished tar (checked
/// again) and added like a new one. A tar written anew that turns out the
/// same size and SHA-256 as the finished one is dropped for it; one that
/// differs replaces it. Finished tars numbered past the last one written
/// are removed by ``finish()``, so the folder holds exactly this run's tars.
///
/// A sink dropped or abandoned removes its partial file; finished tars stay.
final class TarSink: OutputSink {
    /// `--output-tar-size`'s default: 1 GiB.
    static let defaultShardBytes = 1 << 30

    /// The number of a finished tar's name, nil for any other name.
    static func shardNumber(_ name: String) -> Int? {
        guard name.hasSuffix(".tar") else { return nil }
        let digits = name.dropLast(4)
        guard digits.count >= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    private let root: OutputDirectory
    private let folder: OutputDirectory
    private let shardBytes: Int
    private let keepIdentical: Bool
    private let finishedTars: FinishedTars
    private var number = 0
    /// The tar being written, from where the finished tar's kept members end;
    /// nil while tar `number` is only kept members (or nothing yet).
    private var writing: (file: OutputFile, writer: TarWriter, reader: RegularFile, base: Int)?
    /// The bytes of finished tar `number` this run holds as its own: its
    /// members resumed so far, contiguous from its start.
    private var keptEnd = 0
    /// Tar bytes of the current tar's files so far (header + padded contents).
    private var heldBytes = 0
    private var isFinished = false
    /// Tars kept as they were (`keepIdentical`), and tars written anew.
    private(set) var keptShards = 0
    private(set) var writtenShards = 0

    init(directory: OutputDirectory, shardBytes: Int = TarSink.defaultShardBytes, keepIdentical: Bool = false) throws {
        precondition(shardBytes > 0, "shardBytes must be positive")
        root = directory
        folder = try directory.folder(OutputLayout.outputTarsFolder)
        finishedTars = FinishedTars(root: directory)
        self.shardBytes = shardBytes
        self.keepIdentical = keepIdentical
        // Partial tars a killed run left are not finished tars.
        for name in try folder.names() where name.hasSuffix(".partial") {
            try folder.removeItem(name)
        }
    }

    deinit {
        if !isFinished { try? folder.removeItem(OutputLayout.outputTarName(number) + ".partial") }
    }

    /// Tar `number` open for writing, beginning with the finished tar's
    /// kept members.
    private func openForWriting() throws -> (file: OutputFile, writer: TarWriter, reader: RegularFile, base: Int) {
        if let writing { return writing }
        let partial = OutputLayout.outputTarName(number) + ".partial"
        let file = try folder.createFile(partial)
        do {
            if keptEnd > 0 { try finishedTars.copy(number, bytes: keptEnd, to: file) }
            // The partial file read back (header bytes are recorded by their SHA-256); the writer writes through.
            guard let reader = folder.regularFile(partial) else {
                throw FinishedTars.Failure(description: "cannot read back \(file.path)")
            }
            let opened = (file, try TarWriter(fileDescriptor: file.descriptor, name: file.path, unbuffered: true), reader, keptEnd)
            writing = opened
            return opened
        } catch {
            try? file.close()
            try? folder.removeItem(partial)
            throw error
        }
    }

    func beginEntry() throws {
        guard heldBytes >= shardBytes else { return }
        try closeShard()
        number += 1
        heldBytes = 0
        keptEnd = 0
    }

    @discardableResult
    func write(_ bytes: [UInt8], to relativePath: String) throws -> TarMember? {
        try SafeOutputPath.checkRelative(relativePath)
        let (_, writer, reader, base) = try openForWriting()
        let placed = try writer.add(path: relativePath, data: bytes)
        heldBytes += 512 + TarMember.padded(bytes.count)
        guard let header = try PackFile.bytes(reader.descriptor, at: base + placed.header, count: placed.data - placed.header,
                                              path: reader.path) else {
            throw FinishedTars.Failure(description: "\(reader.path): the header of \(relativePath) cannot be read back")
        }
        return TarMember(shard: number, header: base + placed.header, data: base + placed.data, headerSHA256: sha256Hex(header))
    }

    /// A resumed entry's file: where the finished tar holds it when it
    /// follows the members kept so far, otherwise added from there.
    func resume(_ output: CompletionRecord.Output) throws -> CompletionRecord.Output {
        guard let member = output.member else { return output }
        if writing == nil, keepIdentical, member.shard == number, member.header == keptEnd {
            keptEnd = member.end(bytes: output.bytes)
            heldBytes += 512 + TarMember.padded(output.bytes)
            return output
        }
        let contents = try finishedTars.contents(output)
        var written = output
        written.member = try write(contents, to: output.path)
        return written
    }

    /// Completes the current tar and renames it into place, or keeps the
    /// finished one: when it is the kept members and the end, or the same
    /// bytes as the one just written.
    private func closeShard() throws {
        let name = OutputLayout.outputTarName(number), partial = name + ".partial"
        defer { writing = nil }
        if writing == nil, keepIdentical, finishedTars.ends(number, at: keptEnd) {
            keptShards += 1
            return
        }
        let (file, writer, _, _) = try openForWriting()
        try writer.finish()
        try file.close()
        if keepIdentical, let finished = folder.digest(of: name), finished == folder.digest(of: partial) {
            try folder.removeItem(partial)
            keptShards += 1
        } else {
            try folder.rename(partial, to: name)
            finishedTars.reopen()
            writtenShards += 1
        }
    }

    func finish() throws {
        try closeShard()
        isFinished = true
        // Tars an earlier run into DIR wrote past this run's last one, and its single outputs.tar, are not this run's.
        for name in try folder.names() {
            if let stale = Self.shardNumber(name), stale > number { try folder.removeItem(name) }
        }
        for name in OutputLayout.singleOutputTarNames { try root.removeItem(name) }
    }

    /// The tar being written cannot be completed: its partial file is
    /// removed. Finished tars stay (a `--resume` keeps those it writes the
    /// same), but the manifest that listed their files is being rewritten.
    func abandon() -> Bool {
        try? folder.removeItem(OutputLayout.outputTarName(number) + ".partial")
        isFinished = true
        return true
    }
}
