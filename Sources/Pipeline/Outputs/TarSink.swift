import ArchiveIO
import Foundation

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
/// **Resume.** With `keepIdentical` (`--resume`), a tar whose finished file
/// is already there with the same size and SHA-256 as the one just
/// written is kept as it was (the new copy is dropped: its inode and times
/// stay), and one that differs (damaged, or the last tar of an interrupted
/// run) is replaced. Finished tars numbered past the last one written are
/// removed by ``finish()``, so the folder holds exactly this run's tars.
///
/// A sink dropped or abandoned removes its partial file; finished tars stay.
final class TarSink: OutputSink {
    /// The folder of the tars, at the top of DIR.
    static let folderName = "outputs"
    /// `--output-tar-size`'s default: 1 GiB.
    static let defaultShardBytes = 1 << 30

    /// The name of tar `number` in ``folderName`` (`000042.tar`).
    static func shardName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".tar"
    }

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
    private var number = 0
    private var file: OutputFile
    private var writer: TarWriter
    /// Tar bytes of the current tar's files so far (header + padded contents).
    private var heldBytes = 0
    private var isFinished = false
    /// Tars kept as they were (`keepIdentical`), and tars written anew.
    private(set) var keptShards = 0
    private(set) var writtenShards = 0

    init(directory: OutputDirectory, shardBytes: Int = TarSink.defaultShardBytes, keepIdentical: Bool = false) throws {
        precondition(shardBytes > 0, "shardBytes must be positive")
        root = directory
        folder = try directory.folder(Self.folderName)
        self.shardBytes = shardBytes
        self.keepIdentical = keepIdentical
        // Partial tars a killed run left are not finished tars.
        for name in try folder.names() where name.hasSuffix(".partial") {
            try folder.removeItem(name)
        }
        (file, writer) = try Self.open(Self.shardName(0), in: folder)
    }

    deinit {
        if !isFinished { try? folder.removeItem(Self.shardName(number) + ".partial") }
    }

    private static func open(_ name: String, in folder: OutputDirectory) throws -> (OutputFile, TarWriter) {
        let partial = name + ".partial"
        let file = try folder.createFile(partial)
        do {
            return (file, try TarWriter(fileDescriptor: file.descriptor, name: file.path))
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
        (file, writer) = try Self.open(Self.shardName(number), in: folder)
    }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        try writer.add(path: relativePath, data: bytes)
        heldBytes += 512 + (bytes.count + 511) / 512 * 512
    }

    /// Completes the current tar and renames it into place (or keeps the
    /// identical finished one).
    private func closeShard() throws {
        try writer.finish()
        try file.close()
        let name = Self.shardName(number), partial = name + ".partial"
        if keepIdentical, let finished = folder.digest(of: name), finished == folder.digest(of: partial) {
            try folder.removeItem(partial)
            keptShards += 1
        } else {
            try folder.rename(partial, to: name)
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
        try? folder.removeItem(Self.shardName(number) + ".partial")
        isFinished = true
        return true
    }
}
