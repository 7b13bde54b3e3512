import ArchiveIO
import Foundation

/// `facepipe merge OUT`: checks that every shard under `OUT/shards/` is
/// complete and ran the same pipeline, models and inputs, then gives OUT the
/// layout of one run over the sorted inputs — images and JSON hard-linked
/// (copied across file systems) from the shards, one `manifest.csv` (the
/// shards' rows in shard order, which is input order), one `skipped.csv`
/// (joined the same way), one `run.json` (a single run's, with every shard's
/// inputs and provenance). The shards stay as they were, so a merge can be
/// repeated.
///
/// OUT may come from anyone: it is read through `ShardedRunFolder` and written
/// through its `OutputDirectory` handle (no link below OUT is followed
/// either way); each `_SUCCESS` is checked for its own folder; only the
/// files a shard's manifest names (and the other crops of the faces it
/// names) are merged, each the size and SHA-256 its file list records
/// (``ShardFileList``, sealed by `_SUCCESS`); and everything is read and
/// checked before anything is written, but for a file two shards wrote
/// under one name with other contents, which the linking meets. Nothing is
/// held per file or per entry: the manifests and lists are walked as
/// streams, once to check and once to write.
package enum ShardMerge {
    package struct Summary: Sendable {
        package var shards: Int
        package var rows: Int
        package var files: Int
        package var pipeline: String
    }

    package static func merge(into out: URL) throws(ShardError) -> Summary {
        let folder = try ShardedRunFolder(out)
        let root = folder.path
        let shardsPath = root + "/shards"
        let found = try folder.shardFolders()
        guard let count = found.first?.count else { throw .unreadable(path: shardsPath, reason: "no <i>-of-<n> shard folders") }
        if let odd = found.first(where: { $0.count != count }) {
            throw .mismatch("shards of different runs in \(shardsPath): \(found[0].folderName) and \(odd.folderName); remove the folders of the run you do not want")
        }
        var completions = [ShardCompletion?](repeating: nil, count: count)
        for shard in found { completions[shard.index] = try folder.completion(of: shard) }
        let missing = completions.indices.filter { completions[$0] == nil }
        guard missing.isEmpty else {
            let like = completions.lazy.compactMap { $0 }.first
            throw .incomplete(missing: missing, count: count, rerun: missing.map { rerunCommand(for: $0, count: count, like: like) })
        }
        let done = completions.compactMap { $0 }
        let reference = done[0]
        for completion in done.dropFirst() {
            let name = "\(completion.shard)-of-\(count)"
            if completion.pipelineFingerprint != reference.pipelineFingerprint || completion.pipeline != reference.pipeline {
                throw .mismatch("shard \(name) ran pipeline \(completion.pipeline) (\(completion.pipelineFingerprint.prefix(12))), shard 0-of-\(count) ran \(reference.pipeline) (\(reference.pipelineFingerprint.prefix(12))): different pipelines or options")
            }
            if completion.models != reference.models {
                throw .mismatch("shard \(name) used models \(completion.models), shard 0-of-\(count) used \(reference.models)")
            }
            if completion.inputs != reference.inputs || completion.inputSizes != reference.inputSizes {
                throw .mismatch("shard \(name) was given a different input list than shard 0-of-\(count)")
            }
        }
        // Each record was checked for its own folder (index, count, sizes), so this cannot trap.
        let assignment = ShardAssignment(paths: reference.inputs, sizes: reference.inputSizes, count: count)
        for completion in done where completion.assigned != Array(assignment.blocks[completion.shard]) {
            throw .mismatch("shard \(completion.shard)-of-\(count) processed inputs \(completion.assigned), its block is \(Array(assignment.blocks[completion.shard]))")
        }

        // Everything is read and checked before anything is written. The
        // manifests, skipped lists and file lists are read piece by piece or
        // row by row, never held whole, and read again to be written: the
        // merge takes the same memory for shards of any size.
        // A link in place of OUT's output folders stops the merge here.
        for name in OutputLayout.outputFolders {
            do throws(OutputDirectory.Failure) { _ = try folder.directory.existingFolder(name) } catch {
                throw .unwritable(path: error.path, reason: error.reason)
            }
        }
        var header: [UInt8]?
        var rows = 0
        var records: [RunRecord] = []
        for completion in done {
            let shard = try Shard(index: completion.shard, count: count)
            let shardPath = "\(shardsPath)/\(shard.folderName)"
            let hasher = RunningSHA256()
            var headerLine: [UInt8] = [], inHeader = true, lineEnds = 0
            try folder.readPieces(of: shard, named: OutputLayout.manifestName) { piece in
                hasher.update(piece)
                var start = 0
                if inHeader {
                    if let end = piece.firstIndex(of: 0x0A) {
                        headerLine += piece[...end]
                        inHeader = false
                        start = end + 1
                    } else {
                        headerLine += piece
                        start = piece.count
                    }
                }
                for byte in piece[start...] where byte == 0x0A { lineEnds += 1 }
            }
            let digest = hasher.finalize()
            guard digest.bytes == Int64(completion.manifestBytes), digest.sha256 == completion.manifestSHA256 else {
                throw .mismatch("\(shardPath)/manifest.csv is not the manifest its shard wrote (size or SHA-256 differ from _SUCCESS): rerun that shard")
            }
            guard !inHeader else { throw .unreadable(path: shardPath + "/manifest.csv", reason: "no header line") }
            if let header, header != headerLine {
                throw .mismatch("\(shardPath)/manifest.csv has other manifest columns than shard 0-of-\(count)")
            }
            header = headerLine
            rows += lineEnds
            guard try folder.seal(of: shard, named: OutputLayout.skippedName) == completion.skippedList else {
                throw .mismatch("\(shardPath)/\(OutputLayout.skippedName) is not the list its shard wrote (size or SHA-256 differ from _SUCCESS): rerun that shard")
            }
            records.append(try folder.runJSON(of: shard))
            // Each file the merge takes must be in the shard's folder, a
            // regular file reached without links, the size and SHA-256 listed.
            let shardFiles = try folder.folder(of: shard)
            try walkFiles(of: completion, shard: shard, in: folder) { line in
                guard let digest = shardFiles.digest(of: line.path) else {
                    throw ShardError.mismatch("\(shardPath)/\(line.path) is missing (or a link, or not a plain file), but _SUCCESS records it: rerun that shard")
                }
                guard digest == line.digest else {
                    throw ShardError.mismatch("\(shardPath)/\(line.path) is not the file its shard wrote (\(digest.bytes) bytes, _SUCCESS records \(line.digest.bytes) and another SHA-256): rerun that shard")
                }
            }
        }
        guard let record = RunRecord.merging(records, rows: rows, inputPaths: reference.inputs) else {
            throw .unreadable(path: shardsPath, reason: "no shard records")
        }

        // Writes, all through OUT's handle (``OutputDirectory``): no link
        // below OUT is followed. Each file's folders are opened (created
        // when missing) when it comes, and closed when the next file is in
        // other folders: a run has a folder per entry under crops/, more
        // than a process may hold open at once.
        var files = 0
        do {
            var open: (parent: String, shard: Shard, target: OutputDirectory, source: OutputDirectory)?
            for completion in done {
                let shard = try Shard(index: completion.shard, count: count)
                try walkFiles(of: completion, shard: shard, in: folder) { line in
                    let parent = SlashPath.parent(of: line.path)
                    let name = SlashPath.lastComponent(of: line.path)
                    if open?.parent != parent || open?.shard != shard {
                        open = nil
                        let source = "\(OutputLayout.shardFolder(shard))/\(parent)"
                        guard let opened = try folder.directory.existingFolder(source) else {
                            throw OutputDirectory.Failure(path: root + "/" + source, reason: "missing")
                        }
                        open = (parent, shard, try folder.directory.folder(parent), opened)
                    }
                    guard let (_, _, target, source) = open else { return }
                    let added = try target.link(name, from: source)
                    if !added {
                        // Already there (an earlier merge, or another shard's file of the same name): it must be this file.
                        guard folder.directory.digest(of: line.path) == line.digest else {
                            throw ShardError.mismatch("\(root)/\(line.path) exists with other contents (another shard's file of that name, an earlier merge of another run, or not a plain file): merge into an empty folder")
                        }
                    }
                    files += 1
                }
            }
            open = nil
            try writeJoined(OutputLayout.manifestName, of: done, count: count, into: folder) {
                ShardCompletion.FileSeal(bytes: $0.manifestBytes, sha256: $0.manifestSHA256)
            }
            try writeJoined(OutputLayout.skippedName, of: done, count: count, into: folder) { $0.skippedList }
            try record.write(to: folder.directory)
        } catch let error as ShardError {
            throw error
        } catch let error as OutputDirectory.Failure {
            throw .unwritable(path: error.path, reason: error.reason)
        } catch {
            throw .unwritable(path: root, reason: "\(error)")
        }
        do {
            try RunReport.write(directory: URL(fileURLWithPath: root))
        } catch {
            throw .unwritable(path: root + "/report.html", reason: "\(error)")
        }
        return Summary(shards: count, rows: rows, files: files, pipeline: reference.pipeline)
    }

    /// Walks the file list of `completion`'s shard (``ShardFileList/walk(_:in:seal:take:)``).
    private static func walkFiles(of completion: ShardCompletion, shard: Shard, in folder: ShardedRunFolder,
                                  take: (ShardFileList.Line) throws -> Void) throws(ShardError) {
        guard let seal = completion.outputList else {
            throw .badRecord(path: "\(folder.path)/\(OutputLayout.shardFolder(shard))/\(OutputLayout.shardCompletionName)", field: "outputList", reason: "missing")
        }
        do {
            try ShardFileList.walk(shard, in: folder, seal: seal, take: take)
        } catch let error as ShardError {
            throw error
        } catch let error as OutputDirectory.Failure {
            throw .unwritable(path: error.path, reason: error.reason)
        } catch {
            throw .unreadable(path: "\(folder.path)/shards/\(shard.folderName)", reason: "\(error)")
        }
    }

    /// Writes OUT's `name` (`manifest.csv`, `skipped.csv`): the shards'
    /// files of that name in shard order, the header once, copied piece by
    /// piece (write-then-rename); each read again must still be the one
    /// `_SUCCESS` records (`sealOf`).
    static func writeJoined(_ name: String, of done: [ShardCompletion], count: Int, into folder: ShardedRunFolder,
                            sealOf: (ShardCompletion) -> ShardCompletion.FileSeal?) throws {
        let file = try folder.directory.streamedFile(name)
        for (number, completion) in done.enumerated() {
            let shard = try Shard(index: completion.shard, count: count)
            let hasher = RunningSHA256()
            var inHeader = number > 0
            var failure: Int32?
            try folder.readPieces(of: shard, named: name) { piece in
                hasher.update(piece)
                var part = piece[...]
                if inHeader {
                    guard let end = piece.firstIndex(of: 0x0A) else { return }
                    inHeader = false
                    part = piece[(end + 1)...]
                }
                if failure == nil { failure = OutputDirectory.writeAll(UnsafeRawBufferPointer(rebasing: part), to: file.descriptor) }
            }
            if let failure { throw OutputDirectory.Failure(path: file.path, reason: String(cString: strerror(failure))) }
            let digest = hasher.finalize()
            guard let seal = sealOf(completion), digest.bytes == Int64(seal.bytes), digest.sha256 == seal.sha256 else {
                throw ShardError.mismatch("\(folder.path)/shards/\(shard.folderName)/\(name) changed while it was merged: merge again")
            }
        }
        try file.commit()
    }

    /// The shards' run summaries as one: counts added, skipped entries
    /// joined in shard order (input order), interrupted if any shard was.
    package static func combinedSummary(_ summaries: [RunSummary]) -> RunSummary {
        var result = RunSummary()
        for summary in summaries {
            result.entries += summary.entries
            result.failedEntries += summary.failedEntries
            result.failedArchives += summary.failedArchives
            result.faces += summary.faces
            result.keptFaces += summary.keptFaces
            result.resumedEntries += summary.resumedEntries
            result.cacheHits += summary.cacheHits
            result.damagedRecords += summary.damagedRecords
            result.redoneEntries += summary.redoneEntries
            result.megapixels += summary.megapixels
            result.skipped.append(contentsOf: summary.skipped)
            if let members = summary.leftOutMembers {
                var combined = result.leftOutMembers ?? SkippedList()
                combined.append(contentsOf: members)
                result.leftOutMembers = combined
            }
            result.copiedMembers += summary.copiedMembers
            if let covered = summary.coveredVideoRegions { result.coveredVideoRegions = (result.coveredVideoRegions ?? 0) + covered }
            result.leftOutOfShards.append(contentsOf: summary.leftOutOfShards)
            result.notes += summary.notes
            result.interrupted = result.interrupted || summary.interrupted
            if let failure = summary.writeFailure { result.writeFailure = (result.writeFailure.map { $0 + "; " } ?? "") + failure }
        }
        return result
    }

    /// How to run shard `index` again: the command of a finished shard with its `--shard` replaced.
    static func rerunCommand(for index: Int, count: Int, like completion: ShardCompletion?) -> String {
        guard let arguments = completion?.commandLine, !arguments.isEmpty else {
            return "facepipe run PIPELINE INPUT… --out OUT --shard \(index)/\(count)"
        }
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == "--shard" || argument == "--shard-count" { skipNext = true; continue }
            if argument.hasPrefix("--shard=") || argument.hasPrefix("--shard-count=") { continue }
            result.append(argument)
        }
        result += ["--shard", "\(index)/\(count)"]
        return result.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}
