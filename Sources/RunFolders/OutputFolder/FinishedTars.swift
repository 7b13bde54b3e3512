#if canImport(Glibc)
import Glibc
import Pipeline
#endif

/// The finished tars of `DIR/outputs/` (``TarSink``), read by positioned
/// reads of single members: the check `--resume` makes before it reuses
/// an entry whose files are in a tar (``CompletionStore``), and the bytes
/// ``TarSink`` takes from a finished tar into the one replacing it. A tar
/// is opened as a regular file of the output folder, never through a link;
/// the last one opened stays open (entries come in tar order).
package final class FinishedTars {
    /// What a member's check found.
    enum Check: Equatable {
        case intact
        /// The tar is not there (the run that wrote the member stopped before finishing it).
        case missing
        /// The tar is there and the member's bytes are not the recorded ones:
        /// which part differs (no name from the inputs in it).
        case damaged(String)
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    private let root: OutputDirectory
    private var open: (shard: Int, file: RegularFile)?

    /// The tars of `root`'s ``OutputLayout/outputTarsFolder``.
    package init(root: OutputDirectory) {
        self.root = root
    }

    /// The tar's path relative to DIR.
    static func path(_ shard: Int) -> String { OutputLayout.outputTarsFolder + "/" + OutputLayout.outputTarName(shard) }

    private func file(_ shard: Int) -> RegularFile? {
        if let open, open.shard == shard { return open.file }
        open = nil
        guard let file = root.regularFile(Self.path(shard)) else { return nil }
        open = (shard, file)
        return file
    }

    /// Forgets the tar kept open: one renamed into its place is read anew.
    package func reopen() { open = nil }

    /// Whether `output`'s member is in its tar as it was written: header,
    /// contents and padding.
    func check(_ output: CompletionRecord.Output) -> Check {
        guard let member = output.member else { return .damaged("a file recorded outside the tars") }
        guard let file = file(member.shard) else { return .missing }
        guard member.header >= 0, member.header < member.data, member.data - member.header <= 1 << 20, output.bytes >= 0,
              member.end(bytes: output.bytes) <= Int(file.size) else {
            return .damaged("a member lies past the tar's end (truncated or replaced)")
        }
        do {
            guard let header = try PackFile.bytes(file.descriptor, at: member.header, count: member.data - member.header, path: file.path),
                  sha256Hex(header) == member.headerSHA256 else { return .damaged("a member's header differs from its completion record") }
            guard let padded = try PackFile.bytes(file.descriptor, at: member.data, count: TarMember.padded(output.bytes), path: file.path),
                  sha256Hex(padded[..<output.bytes]) == output.sha256 else { return .damaged("a member's contents differ from its completion record") }
            guard padded[output.bytes...].allSatisfy({ $0 == 0 }) else { return .damaged("a member's padding is not zeros") }
        } catch {
            return .damaged("unreadable")
        }
        return .intact
    }

    /// `output`'s contents read from its tar, checked; throws when the tar
    /// no longer holds them.
    package func contents(_ output: CompletionRecord.Output) throws -> [UInt8] {
        guard let member = output.member, let file = file(member.shard),
              let bytes = try PackFile.bytes(file.descriptor, at: member.data, count: output.bytes, path: file.path),
              sha256Hex(bytes) == output.sha256 else {
            throw Failure(description: "\(output.path) is no longer in \(Self.path(output.member?.shard ?? -1)) as its completion record says; run again with --resume")
        }
        return bytes
    }

    /// Whether tar `shard` holds nothing past `end` but the end-of-archive
    /// blocks (two of 512 zero bytes).
    package func ends(_ shard: Int, at end: Int) -> Bool {
        guard let file = file(shard), Int(file.size) == end + 1024,
              let tail = try? PackFile.bytes(file.descriptor, at: end, count: 1024, path: file.path) else { return false }
        return tail.allSatisfy { $0 == 0 }
    }

    /// Copies the first `count` bytes of tar `shard` (members already
    /// checked) to the end of `destination`.
    package func copy(_ shard: Int, bytes count: Int, to destination: OutputFile) throws {
        guard let file = file(shard), Int(file.size) >= count else {
            throw Failure(description: "\(Self.path(shard)) is no longer the tar the completion records name; run again with --resume")
        }
        var offset = 0
        while offset < count {
            let piece = min(1 << 20, count - offset)
            guard let bytes = try PackFile.bytes(file.descriptor, at: offset, count: piece, path: file.path) else {
                throw Failure(description: "\(Self.path(shard)) ended early")
            }
            try destination.append(bytes)
            offset += piece
        }
    }
}
