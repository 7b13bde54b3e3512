import ArchiveIO
import Foundation
import RunFolders

/// `--redacted-shards`: for each input tar `X.tar`, `DIR/redacted/X.tar`
/// with the input's regular members in the same order under the same name
/// bytes: each image replaced by its redacted image; a member known by
/// its content to carry no picture (empty, UTF-8 text: ``NonVisualContent``)
/// copied; every other member left out, or copied through with
/// `--copy-unknown` unless it looks like a picture (``RedactedTarMember``);
/// an image that could not be processed is left out. A shard is written to a temporary file in `redacted/`
/// (created through ``OutputDirectory``, links never followed) and renamed
/// to its name when its input has been read to the end, so no half shard
/// ever has a final name; an input that ends in damage gets none.
/// Headers are ``TarWriter``'s (mtime 0, uid/gid 0, mode 0644): the same
/// run gives the same bytes for any worker count. Used only from the
/// ordered writer.
final class RedactedTars {
    /// What the run needs to know about each input before it starts.
    struct Input: Equatable {
        /// The shard's file name (the input's unique name in the run).
        var name: String
        var compression: TarWriter.Compression
    }

    private let directory: OutputDirectory
    private let folder: OutputDirectory
    private let inputs: [Input]
    private var open: (input: Int, temporary: String, file: OutputFile, writer: TarWriter)?
    /// Inputs whose shard is not written (the input failed).
    private var discarded: Set<Int> = []

    init(directory: OutputDirectory, inputs: [Input]) throws {
        self.directory = directory
        folder = try directory.folder(OutputLayout.redactedFolder)
        self.inputs = inputs
    }

    deinit { abandon() }

    /// The input whose shard is being written (not yet named), if any.
    var openInput: Int? { open?.input }

    /// The shard's path relative to DIR (the manifest's `output` column).
    func path(ofInput input: Int) -> String { "\(OutputLayout.redactedFolder)/\(inputs[input].name)" }

    /// Appends a member to input `input`'s shard.
    func add(input: Int, rawName: [UInt8], data: [UInt8]) throws {
        guard !discarded.contains(input) else { return }
        let writer = try writer(for: input)
        try writer.add(rawPath: rawName, data: data)
    }

    /// Input `input` was read to its end: its shard (empty when nothing was
    /// written) gets its name.
    func finishInput(_ input: Int) throws {
        guard !discarded.contains(input) else { return }
        _ = try writer(for: input)
        guard let current = open else { return }
        open = nil
        try current.writer.finish()
        try current.file.close()
        try folder.rename(current.temporary, to: inputs[input].name)
    }

    /// Input `input` failed (could not be opened, or ended in damage): its
    /// shard is not written, and a shard of that name from an earlier run
    /// is removed (it is not this run's).
    func discardInput(_ input: Int) {
        discarded.insert(input)
        if let current = open, current.input == input {
            open = nil
            try? folder.removeItem(current.temporary)
        }
        try? folder.removeItem(inputs[input].name)
    }

    /// The run stops without reading its inputs to the end: the shard being
    /// written is removed (shards already named are whole and stay).
    func abandon() {
        guard let current = open else { return }
        open = nil
        try? folder.removeItem(current.temporary)
    }

    private func writer(for input: Int) throws -> TarWriter {
        if let current = open {
            // Inputs come in order: an earlier one still open was cut short.
            if current.input == input { return current.writer }
            abandon()
        }
        let temporary = OutputDirectory.temporaryName(for: inputs[input].name)
        let file = try folder.createFile(temporary)
        do {
            let writer = try TarWriter(fileDescriptor: file.descriptor, name: "\(directory.path)/\(path(ofInput: input))",
                                       compression: inputs[input].compression)
            open = (input, temporary, file, writer)
            return writer
        } catch {
            try? folder.removeItem(temporary)
            throw error
        }
    }
}
