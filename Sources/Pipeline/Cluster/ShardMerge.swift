import Foundation

/// `facepipe merge OUT`: checks that every shard under `OUT/shards/` is
/// complete and ran the same pipeline, models and inputs, then gives OUT the
/// layout of one run over the sorted inputs — images and JSON hard-linked
/// (copied across file systems) from the shards, one `manifest.csv` (the
/// shards' rows in shard order, which is input order), one `run.json` (a
/// single run's, with every shard's inputs and provenance). The shards stay as they were, so a merge can be
/// repeated.
///
/// OUT may come from anyone: it is read through `ShardedRunFolder` and written
/// through its `OutputDirectory` handle (no link below OUT is followed
/// either way); each `_SUCCESS` is checked for its own folder; only the
/// files a shard's manifest names (and the other crops of the faces it
/// names) are merged, each the size and SHA-256 `_SUCCESS` records; and
/// everything is read and checked before anything is written.
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
        // manifests are read piece by piece (their size and SHA-256, then
        // their rows), never held whole; they are read again to be written.
        var header: [UInt8]?
        var rows = 0
        var records: [RunRecord] = []
        var merged: [(shard: Shard, path: String, digest: OutputDirectory.FileDigest)] = []
        for completion in done {
            let shard = try Shard(index: completion.shard, count: count)
            let shardPath = "\(shardsPath)/\(shard.folderName)"
            let hasher = RunningSHA256()
            var headerLine: [UInt8] = [], inHeader = true, lineEnds = 0
            try folder.readManifest(of: shard) { piece in
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
            let named = try folder.namedFiles(of: shard)
            if let header, header != headerLine {
                throw .mismatch("\(shardPath)/manifest.csv has other manifest columns than shard 0-of-\(count)")
            }
            header = headerLine
            rows += lineEnds
            records.append(try folder.runJSON(of: shard))
            merged += try files(of: completion, named: named, in: folder.folder(of: shard), shardPath: shardPath)
                .map { (shard: shard, path: $0.path, digest: $0.digest) }
        }
        // A file two shards both wrote must be the same file.
        var byPath: [String: (shard: Shard, digest: OutputDirectory.FileDigest)] = [:]
        for file in merged {
            if let other = byPath[file.path], other.digest != file.digest {
                throw .mismatch("\(file.path) is written by shards \(other.shard.folderName) and \(file.shard.folderName) with other contents")
            }
            byPath[file.path] = (file.shard, file.digest)
        }
        guard let record = RunRecord.merging(records, rows: rows, inputPaths: reference.inputs) else {
            throw .unreadable(path: shardsPath, reason: "no shard records")
        }

        // Writes, all through OUT's handle (``OutputDirectory``): no link
        // below OUT is followed. Folders first, so a link in place of one
        // stops the merge before any file is linked.
        let files: Int
        do {
            // Each folder is opened (created when missing) and closed again:
            // a run has a folder per entry under crops/, more than a process
            // may hold open at once.
            var parents = Set<String>()
            for file in merged where parents.insert((file.path as NSString).deletingLastPathComponent).inserted {
                _ = try folder.directory.folder((file.path as NSString).deletingLastPathComponent)
            }
            // Then the files, holding only the folders of the current one
            // open (a shard's files come folder by folder, sorted by path).
            var open: (parent: String, shard: Shard, target: OutputDirectory, source: OutputDirectory)?
            var linked = Set<String>()
            for file in merged where linked.insert(file.path).inserted {
                let parent = (file.path as NSString).deletingLastPathComponent
                let name = (file.path as NSString).lastPathComponent
                if open?.parent != parent || open?.shard != file.shard {
                    open = nil
                    let source = "shards/\(file.shard.folderName)/\(parent)"
                    guard let opened = try folder.directory.existingFolder(source) else {
                        throw OutputDirectory.Failure(path: root + "/" + source, reason: "missing")
                    }
                    open = (parent, file.shard, try folder.directory.folder(parent), opened)
                }
                guard let (_, _, target, source) = open else { continue }
                let added = try target.link(name, from: source)
                if !added {
                    // Already there (an earlier merge): it must be this file.
                    guard folder.directory.digest(of: file.path) == file.digest else {
                        throw ShardError.mismatch("\(root)/\(file.path) exists with other contents (an earlier merge of another run, or not a plain file): merge into an empty folder")
                    }
                }
            }
            files = linked.count
            try writeManifest(of: done, count: count, into: folder)
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

    /// Writes OUT/manifest.csv: the shards' manifests in shard order, the
    /// header once, copied piece by piece (write-then-rename); each read
    /// again must still be the one `_SUCCESS` records.
    static func writeManifest(of done: [ShardCompletion], count: Int, into folder: ShardedRunFolder) throws {
        let file = try folder.directory.streamedFile("manifest.csv")
        for (number, completion) in done.enumerated() {
            let shard = try Shard(index: completion.shard, count: count)
            let hasher = RunningSHA256()
            var inHeader = number > 0
            var failure: Int32?
            try folder.readManifest(of: shard) { piece in
                hasher.update(piece)
                var part = piece[...]
                if inHeader {
                    guard let end = piece.firstIndex(of: 0x0A) else { return }
                    inHeader = false
                    part = piece[(end + 1)...]
                }
                let bytes = UnsafeRawBufferPointer(rebasing: part)
                var written = 0
                while failure == nil && written < bytes.count {
                    let wrote = write(file.descriptor, bytes.baseAddress! + written, bytes.count - written)
                    if wrote < 0 && errno == EINTR { continue }
                    if wrote <= 0 { failure = wrote < 0 ? errno : EIO } else { written += wrote }
                }
            }
            if let failure { throw OutputDirectory.Failure(path: file.path, reason: String(cString: strerror(failure))) }
            let digest = hasher.finalize()
            guard digest.bytes == Int64(completion.manifestBytes), digest.sha256 == completion.manifestSHA256 else {
                throw ShardError.mismatch("\(folder.path)/shards/\(shard.folderName)/manifest.csv changed while it was merged: merge again")
            }
        }
        try file.commit()
    }

    /// The output files of one shard that the merge takes: those its
    /// manifest names (`output`, `faces_json`, `crop`) and the other crops
    /// of the same faces (the manifest names a face's first crop, its JSON
    /// all of them, in the same folder). Each must be recorded in `_SUCCESS`
    /// and be in the shard's folder, a regular file reached without links,
    /// with the recorded size and SHA-256.
    static func files(of completion: ShardCompletion, named: [String], in shard: OutputDirectory,
                      shardPath: String) throws(ShardError) -> [(path: String, digest: OutputDirectory.FileDigest)] {
        let recorded = Dictionary((completion.outputs ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for path in named where recorded[path] == nil {
            throw .mismatch("\(shardPath)/manifest.csv names \(path), which its _SUCCESS does not record: rerun that shard")
        }
        let named = Set(named)
        let cropFolders = Set(named.filter { $0.hasPrefix("crops/") }.map { ($0 as NSString).deletingLastPathComponent })
        var result: [(path: String, digest: OutputDirectory.FileDigest)] = []
        for output in completion.outputs ?? [] {
            guard named.contains(output.path)
                    || (output.path.hasPrefix("crops/") && cropFolders.contains((output.path as NSString).deletingLastPathComponent)) else { continue }
            let expected = OutputDirectory.FileDigest(bytes: output.bytes, sha256: output.sha256)
            guard let digest = shard.digest(of: output.path) else {
                throw .mismatch("\(shardPath)/\(output.path) is missing (or a link, or not a plain file), but _SUCCESS records it: rerun that shard")
            }
            guard digest == expected else {
                throw .mismatch("\(shardPath)/\(output.path) is not the file its shard wrote (\(digest.bytes) bytes, _SUCCESS records \(output.bytes) and another SHA-256): rerun that shard")
            }
            result.append((output.path, expected))
        }
        return result
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
            result.skipped += summary.skipped
            result.copiedMembers += summary.copiedMembers
            if let covered = summary.coveredVideoRegions { result.coveredVideoRegions = (result.coveredVideoRegions ?? 0) + covered }
            result.leftOutOfShards += summary.leftOutOfShards
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
