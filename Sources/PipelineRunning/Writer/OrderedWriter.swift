import Foundation
import Pipeline
import RunFolders

/// The output folder's ``EntryWriter``: in sequence order, the ordered step
/// (``order(_:)``: the ordered passes, the output names), then, after the
/// position's encode step (``EntryRender/encoded()``, off this task), the
/// placement of its bytes (``place(_:)``: image, crop and JSON files,
/// redacted-shard members, a video frame into its video's encoder,
/// completion records, manifest rows). Runs on the producer's task only
/// (never concurrently), so it needs no locks.
final class OrderedWriter: EntryWriter {
    private let sink: any OutputSink
    private let manifest: OutputFile
    /// Every skipped entry, as it is seen (`skipped.csv`).
    private let skippedFile: SkippedFile
    /// Bytes of the manifest's header, and of all rows written whole.
    private var manifestHeaderBytes = 0
    private var manifestBytes = 0
    private let completions: CompletionStore
    private let pipelineFingerprint: String
    private let outputSignature: String
    /// Output names given so far (entries' paths, kept images), on disk.
    private let claimedNames: ClaimedNames
    private(set) var summary = RunSummary()
    private let orderedPasses: [any OrderedRecordPass]
    /// The pipeline's tracking of video frames (``CompiledPipeline/videoTracking``): applied to frames only.
    private let videoFramesPass: (any OrderedRecordPass)?
    /// The input being placed (its first row's offset and counts are kept below).
    private var currentArchive: Int?
    /// The sequence the ordered passes follow: the input, and the video's
    /// index in it for a frame (nil otherwise). Passes begin again when it
    /// changes, so tracks restart with each input and each video.
    private var orderedSequence: [Int?] = []
    /// The video the ordered step last named (its key and path).
    private var orderedVideo: (key: [Int], path: String)?
    /// `--redacted-shards`: images go into the input's shard instead of `sink`.
    private let shards: RedactedTars?
    /// Where a video's frames are written back as one video (``VideoOutput``);
    /// nil: each frame is an image file like a still's.
    private let videoDirectory: OutputDirectory?
    /// A redacting pipeline's cover of tracked faces missed in video frames (``VideoOutput``).
    private let videoCover: (redact: Redact, reach: Int)?
    /// The video being written.
    private var video: VideoOutput?
    /// Manifest bytes and counts before the current archive's first row.
    private var archiveRowsStart = 0
    private var archiveStartSummary = RunSummary()
    /// The inputs that are one image file each (``RunInput/isImageFile``):
    /// their outputs are named by the input's name alone.
    private let imageFileInputs: Set<Int>

    /// `manifest`: a new, empty file (``OutputDirectory/createFile(_:)``).
    init(sink: any OutputSink, manifest: OutputFile, skippedFile: SkippedFile, completions: CompletionStore,
         pipelineFingerprint: String, outputSignature: String, orderedPasses: [any OrderedRecordPass] = [],
         videoFramesPass: (any OrderedRecordPass)? = nil, shards: RedactedTars? = nil,
         videoDirectory: OutputDirectory? = nil, videoCover: (redact: Redact, reach: Int)? = nil,
         claimedNames: ClaimedNames, imageFileInputs: Set<Int> = []) throws {
        self.claimedNames = claimedNames
        self.imageFileInputs = imageFileInputs
        self.videoDirectory = videoDirectory
        self.videoCover = videoCover
        self.orderedPasses = orderedPasses
        self.videoFramesPass = videoFramesPass
        self.shards = shards
        self.manifest = manifest
        self.skippedFile = skippedFile
        self.sink = sink
        self.completions = completions
        self.pipelineFingerprint = pipelineFingerprint
        self.outputSignature = outputSignature
        manifestHeaderBytes = try append(lines: [Manifest.csvLine(Manifest.columns)])
    }

    /// A completion record for this entry that this run may reuse, if any.
    func reusableCompletion(archive: Int, archiveName: String, entryName: String, index: Int,
                            contentHash: String, frame: Int?) -> CompletionRecord? {
        completions.reusable(identity(archive: archive, archiveName: archiveName, entryName: entryName,
                                      index: index, contentHash: contentHash, frame: frame))
    }

    private func identity(archive: Int, archiveName: String, entryName: String, index: Int,
                          contentHash: String, frame: Int? = nil) -> CompletionRecord.Identity {
        CompletionRecord.Identity(archiveNumber: archive, archive: archiveName, entry: entryName, index: index,
                                  contentHash: contentHash, pipelineFingerprint: pipelineFingerprint,
                                  outputSignature: outputSignature, frame: frame)
    }

    func addSkipped(_ skipped: RunSummary.SkippedRecord) throws {
        try skippedFile.append(skipped)
        summary.addSkipped(skipped)
    }

    func markInterrupted() { summary.interrupted = true }

    /// The ordered step, in sequence order: the ordered passes (begun again
    /// with each input and each video) and the output names (claimed in
    /// order, so they do not depend on scheduling). Makes no bytes.
    func order(_ item: SequencedOutcome) throws -> EntryRender {
        if case .archiveFailed(let reason) = item.outcome {
            return EntryRender(position: OutputPosition(item, beginsSequence: false), work: .ready(.archiveFailed(reason: reason)))
        }
        let sequence: [Int?] = [item.archiveNumber, item.frame == nil ? nil : item.index]
        let beginsSequence = orderedSequence != sequence
        if beginsSequence {
            orderedSequence = sequence
            orderedVideo = nil
            for pass in orderedPasses { pass.beginArchive() }
            videoFramesPass?.beginArchive()
        }
        let position = OutputPosition(item, beginsSequence: beginsSequence)
        // The passes that apply to this item: the stages' own, and for a video frame the pipeline's tracking.
        let passes = orderedPasses + (item.frame == nil ? [] : videoFramesPass.map { [$0] } ?? [])
        let folder = item.archiveName
        let index = item.index ?? 0
        func claimedStem() throws -> String {
            let claimedPath = try OutputPathClaimer(archive: item.archiveNumber, names: claimedNames).claim(rawName: item.rawName, index: index)
            // `<input>/<entry path>`; an image file given as an input: its name alone (`a.jpg`).
            return imageFileInputs.contains(item.archiveNumber) ? folder : "\(folder)/\(claimedPath)"
        }
        switch item.outcome {
        case .archiveFailed(let reason):
            return EntryRender(position: position, work: .ready(.archiveFailed(reason: reason)))
        case .copied(let bytes):
            return EntryRender(position: position, work: .ready(.copied(bytes)))
        case .inputEnded:
            return EntryRender(position: position, work: .ready(.inputEnded))
        case .rendered(var rendered, let contentHash, let cacheHits):
            let stem = try claimedStem()
            let beforePasses = passes.isEmpty ? nil : rendered.record
            for pass in passes { pass.apply(to: &rendered.record) }
            let picture: EntryOutputs.Picture
            if let deferred = rendered.deferredLabels, videoDirectory != nil, let origin = item.origin {
                // A video's frame goes into the video's own output, in frame order.
                let key = [item.archiveNumber, index]
                if orderedVideo?.key != key {
                    let claimed = try OutputPathClaimer(archive: item.archiveNumber, names: claimedNames).claim(rawName: origin.source.rawName, index: index)
                    var name = origin.source.outputName("\(OutputLayout.imagesFolder)/\(folder)/\(claimed)")
                    while try !claimedNames.insert(Self.imageKey(name)) { name = origin.source.outputName(name + "~") }
                    orderedVideo = (key, name)
                }
                picture = .videoFrame(VideoFrameTarget(key: key, path: orderedVideo!.path, source: origin.source, pts: origin.pts), deferred)
            } else if let source = rendered.image.map(EntryOutputs.Source.encoded) ?? rendered.deferredLabels.map(EntryOutputs.Source.labelsToDraw) {
                if let shards {
                    // In place of the entry, under its own name; the shard is named when the input ends.
                    picture = .shard(path: shards.path(ofInput: item.archiveNumber), source)
                } else {
                    picture = .file(path: try imageName("\(OutputLayout.imagesFolder)/\(stem)", rendered.imageExtension), source)
                }
            } else {
                picture = .none
            }
            return EntryRender(position: position, work: .entry(EntryOutputs(
                record: rendered.record, recordBeforePasses: beforePasses, picture: picture, cropFolder: "\(OutputLayout.cropsFolder)/\(stem)",
                jsonPath: rendered.writesFaceJSON ? "\(OutputLayout.facesFolder)/\(stem).json" : nil, contentHash: contentHash, cacheHits: cacheHits)))
        case let .failed(reason, contentHash, partial):
            _ = try claimedStem()
            var nothing = EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in passes { pass.apply(to: &nothing) }
            return EntryRender(position: position, work: .ready(.failed(reason: reason, contentHash: contentHash, partial: partial)))
        case .resumed(let record):
            _ = try claimedStem()
            // Its image keeps its name: claimed again, so an entry done anew after it cannot take it.
            for output in record.outputs where output.path.hasPrefix(OutputLayout.imagesFolder + "/") {
                _ = try claimedNames.insert(Self.imageKey(output.path))
            }
            var replay = record.record ?? EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in passes { pass.apply(to: &replay) }
            return EntryRender(position: position, work: .ready(.resumed(record)))
        }
    }

    /// Places `entry`'s bytes, completion record and rows; when a write
    /// fails, the counts are left as they were, so the summary counts only
    /// entries written whole (as the manifest lists them).
    func place(_ entry: EncodedEntry) throws {
        let counted = summary
        do {
            try placeFilesAndRows(entry, counted: counted)
        } catch {
            summary = counted
            throw error
        }
    }

    /// `counted`: the summary before this entry.
    private func placeFilesAndRows(_ entry: EncodedEntry, counted: RunSummary) throws {
        let position = entry.position
        if case .archiveFailed(let reason) = entry.content {
            summary.failedArchives += 1
            shards?.discardInput(position.archiveNumber)
            try append([Manifest.errorRow(archive: position.archiveName, entry: position.entryName, index: position.index, reason: reason)])
            return
        }
        if currentArchive != position.archiveNumber {
            currentArchive = position.archiveNumber
            archiveRowsStart = manifestBytes
            archiveStartSummary = counted
        }
        if position.beginsSequence {
            try finishVideo()
            if let note = position.otherStreamsNote { summary.notes.append(note) }
        }
        let index = position.index ?? 0
        let rows: [ManifestRow]
        switch entry.content {
        case .archiveFailed:
            return
        case .copied(let bytes):
            try shards?.add(input: position.archiveNumber, rawName: position.rawName, data: bytes)
            summary.copiedMembers += 1
            return
        case .inputEnded:
            try shards?.finishInput(position.archiveNumber)
            return
        case .files(let files):
            summary.entries += 1
            try sink.beginEntry()
            var outputs: [CompletionRecord.Output] = []
            var intoVideo = false
            switch files.picture {
            case .none:
                break
            case .file(let file):
                outputs.append(file.output(member: try sink.write(file.bytes, to: file.path)))
            case .shard(_, let bytes):
                try shards?.add(input: position.archiveNumber, rawName: position.rawName, data: bytes)
            case .videoFrame(let target, let image, let trackedFaces):
                if video?.key != target.key, let videoDirectory {
                    try finishVideo()
                    video = try VideoOutput(key: target.key, path: target.path, directory: videoDirectory,
                                            source: target.source, width: image.width, height: image.height,
                                            cover: videoCover)
                }
                try video?.append(image, pts: target.pts, trackedFaces: trackedFaces)
                intoVideo = true
            }
            for crop in files.crops {
                outputs.append(crop.output(member: try sink.write(crop.bytes, to: crop.path)))
            }
            if let json = files.json {
                outputs.append(json.output(member: try sink.write(json.bytes, to: json.path)))
            }
            rows = files.rows
            summary.cacheHits += files.cacheHits
            add(files.counts)
            // A frame inside a video is not resumed: the video is written whole, so a resumed run redoes it (from the stage cache).
            if !intoVideo {
                try completions.store(CompletionRecord(
                    identity: identity(archive: position.archiveNumber, archiveName: position.archiveName, entryName: position.entryName,
                                       index: index, contentHash: files.contentHash, frame: position.frame),
                    rows: rows, outputs: outputs, counts: files.counts, record: files.recordBeforePasses))
            }
        case let .failed(reason, contentHash, partial):
            summary.entries += 1
            let counts = CompletionRecord.Counts(failed: true)
            add(counts)
            if shards != nil {
                summary.leftOutOfShards.append(.init(archive: position.archiveName, index: index, name: position.entryName, reason: reason))
            }
            rows = [Manifest.errorRow(archive: position.archiveName, entry: position.entryName, index: index, reason: reason,
                                      known: partial, frame: position.frame, time: position.time)]
            try completions.store(CompletionRecord(
                identity: identity(archive: position.archiveNumber, archiveName: position.archiveName, entryName: position.entryName,
                                   index: index, contentHash: contentHash, frame: position.frame),
                rows: rows, outputs: [], counts: counts))
        case .resumed(let record):
            summary.entries += 1
            // Its files stay where they are; an output tar counts them in its current tar (or adds them again).
            if !record.counts.failed { try sink.beginEntry() }
            var moved = record
            moved.outputs = try record.outputs.map { try sink.resume($0) }
            if moved != record { try completions.store(moved) }
            summary.resumedEntries += 1
            rows = record.rows
            add(record.counts)
        }
        try append(rows)
    }

    /// The image file's path for the entry's output `path`: a JPEG of an
    /// entry already named `.jpg` or `.jpeg` keeps the entry's name (so
    /// redacted images can replace the originals), unless an earlier entry
    /// of the run took that path; otherwise the extension is appended
    /// (`a.png.png`), again while the path is taken.
    private func imageName(_ path: String, _ fileExtension: String) throws -> String {
        let lowered = path.lowercased()
        if fileExtension == "jpg", lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg"),
           try claimedNames.insert(Self.imageKey(path)) {
            return path
        }
        var name = "\(path).\(fileExtension)"
        while try !claimedNames.insert(Self.imageKey(name)) { name += ".\(fileExtension)" }
        return name
    }

    /// An image's name in ``claimedNames`` (apart from the entries' paths).
    private static func imageKey(_ name: String) -> String { "image\0" + name }

    private func add(_ counts: CompletionRecord.Counts) {
        summary.faces += counts.faces
        summary.keptFaces += counts.keptFaces
        summary.megapixels += counts.megapixels
        if counts.failed { summary.failedEntries += 1 }
    }

    /// Finishes the video being written, if any (renamed into place).
    private func finishVideo() throws {
        guard let video else { return }
        self.video = nil
        try video.finish()
        summary.notes += video.notes
        if videoCover != nil { summary.coveredVideoRegions = (summary.coveredVideoRegions ?? 0) + video.coveredRegions }
    }

    func finish() throws {
        try finishVideo()
        // An input not read to its end (the run was stopped) has no shard, nor rows.
        if let note = dropOpenShard() { summary.notes.append(note) }
        try sink.finish()
        try manifest.close()
        try skippedFile.close()
    }

    /// The redacted shard being written, if any, is removed (and one of
    /// its name an earlier run left: this manifest does not list it), and
    /// the manifest and counts are cut back to before its input's rows.
    /// Returns a note saying so.
    private func dropOpenShard() -> String? {
        guard let shards, let input = shards.openInput else { return nil }
        shards.discardInput(input)
        let rowsStart = input == currentArchive ? archiveRowsStart : manifestBytes
        do {
            try manifest.truncate(to: rowsStart)
        } catch {
            return "\(shards.path(ofInput: input)) is not written and the manifest could not be cut back (\(error))"
        }
        manifestBytes = rowsStart
        if input == currentArchive {
            // Count only what the manifest lists (skipped entries stay listed in skipped.csv).
            var restored = archiveStartSummary
            restored.skipped = summary.skipped
            restored.leftOutMembers = summary.leftOutMembers
            restored.interrupted = summary.interrupted
            restored.notes = summary.notes
            summary = restored
        }
        return "\(shards.path(ofInput: input)) is not written (its input was not read to the end); the manifest lists none of its entries"
    }

    /// After a write failure, instead of `finish()`: what was written stays
    /// consistent. When the sink loses its files (an output tar), the
    /// manifest is cut back to its header and the returned note says so;
    /// when a redacted shard was being written, it is removed and the
    /// manifest is cut back to before its input's rows.
    func abandon() -> String? {
        video?.discard()
        video = nil
        let note = dropOpenShard()
        guard sink.abandon() else { return note }
        do {
            try manifest.truncate(to: manifestHeaderBytes)
        } catch {
            return (note.map { $0 + "; " } ?? "") + "the output tar being written is removed and the manifest could not be cut back (\(error))"
        }
        return (note.map { $0 + "; " } ?? "") + "the output tar being written is removed (finished ones stay for --resume); the manifest lists no entries"
    }

    /// Appends whole rows: a write that fails part-way (disk full) is cut
    /// back, so the manifest never ends in a torn row.
    @discardableResult
    private func append(_ rows: [ManifestRow]) throws -> Int {
        try append(lines: rows.map { Manifest.csvLine($0.cells) })
    }

    /// Appends whole CSV lines (the header, rows), cut back if the write fails part-way.
    private func append(lines: [String]) throws -> Int {
        let bytes = Array(lines.joined().utf8)
        do {
            try manifest.append(bytes)
        } catch {
            try? manifest.truncate(to: manifestBytes)
            throw error
        }
        manifestBytes += bytes.count
        return manifestBytes
    }
}
