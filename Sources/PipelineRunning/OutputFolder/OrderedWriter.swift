import Foundation
import Pipeline
import RunFolders

/// Writes outcomes in sequence order: image and JSON files, completion
/// records, manifest rows. Runs on the producer's task only (never
/// concurrently), so it needs no locks.
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
    private var currentArchive: Int?
    /// The sequence the ordered passes follow: the input, and the video's
    /// index in it for a frame (nil otherwise). Passes begin again when it
    /// changes, so tracks restart with each input and each video.
    private var currentSequence: [Int?] = []
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
        manifestHeaderBytes = try append([Manifest.columns])
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

    /// Writes `item`'s files, completion record and rows; when a write
    /// fails, the counts are left as they were, so the summary counts only
    /// entries written whole (as the manifest lists them).
    func write(_ item: SequencedOutcome) throws {
        let counted = summary
        do {
            try writeFilesAndRows(item, counted: counted)
        } catch {
            summary = counted
            throw error
        }
    }

    /// `counted`: the summary before this item.
    private func writeFilesAndRows(_ item: SequencedOutcome, counted: RunSummary) throws {
        // The runner named each input as its output folder (`RunInput.withUniqueNames`).
        let folder = item.archiveName
        switch item.outcome {
        case .archiveFailed(let reason):
            summary.failedArchives += 1
            shards?.discardInput(item.archiveNumber)
            try append([Manifest.errorRow(archive: item.archiveName, entry: item.entryName, index: item.index, reason: reason)])
            return
        default:
            break
        }
        if currentArchive != item.archiveNumber {
            currentArchive = item.archiveNumber
            archiveRowsStart = manifestBytes
            archiveStartSummary = counted
        }
        let sequence: [Int?] = [item.archiveNumber, item.frame == nil ? nil : item.index]
        if currentSequence != sequence {
            currentSequence = sequence
            try finishVideo()
            if let note = item.origin?.source.otherStreamsNote { summary.notes.append(note) }
            for pass in orderedPasses { pass.beginArchive() }
            videoFramesPass?.beginArchive()
        }
        // The passes that apply to this item: the stages' own, and for a video frame the pipeline's tracking.
        let passes = orderedPasses + (item.frame == nil ? [] : videoFramesPass.map { [$0] } ?? [])
        switch item.outcome {
        case .copied(let bytes):
            try shards?.add(input: item.archiveNumber, rawName: item.rawName, data: bytes)
            summary.copiedMembers += 1
            return
        case .inputEnded:
            try shards?.finishInput(item.archiveNumber)
            return
        default:
            break
        }
        let index = item.index ?? 0
        let claimedPath = try OutputPathClaimer(archive: item.archiveNumber, names: claimedNames).claim(rawName: item.rawName, index: index)
        // `<input>/<entry path>`; an image file given as an input: its name alone (`a.jpg`).
        let stem = imageFileInputs.contains(item.archiveNumber) ? folder : "\(folder)/\(claimedPath)"
        summary.entries += 1
        let rows: [[String]]
        switch item.outcome {
        case .rendered(var rendered, let contentHash, let cacheHits):
            try sink.beginEntry()
            let beforePasses = passes.isEmpty ? nil : rendered.record
            if !passes.isEmpty {
                for pass in passes { pass.apply(to: &rendered.record) }
                if rendered.faceJSON != nil { rendered.faceJSON = FaceJSONEncoder.encode(rendered.record) }
            }
            var outputs: [CompletionRecord.Output] = []
            var imagePath = "", jsonPath = ""
            var intoVideo = false
            if let deferred = rendered.deferredLabels {
                if let videoDirectory, let origin = item.origin {
                    // A video's frame goes into the video's own output, in frame order.
                    let image = deferred.drawn(rendered.record)
                    if video?.key != [item.archiveNumber, index] {
                        try finishVideo()
                        let claimed = try OutputPathClaimer(archive: item.archiveNumber, names: claimedNames).claim(rawName: origin.source.rawName, index: index)
                        var name = origin.source.outputName("\(OutputLayout.imagesFolder)/\(folder)/\(claimed)")
                        while try !claimedNames.insert(Self.imageKey(name)) { name = origin.source.outputName(name + "~") }
                        video = try VideoOutput(key: [item.archiveNumber, index], path: name, directory: videoDirectory,
                                                source: origin.source, width: image.width, height: image.height,
                                                cover: videoCover)
                    }
                    let tracked = rendered.record.faces.compactMap { face in face.trackingID.map { (trackID: $0, box: face.box) } }
                    try video!.append(image, pts: origin.pts, trackedFaces: tracked)
                    imagePath = video!.path
                    intoVideo = true
                } else {
                    rendered.image = try deferred.render(rendered.record)
                }
            }
            if let image = rendered.image, let shards {
                // In place of the entry, under its own name; the shard is named when the input ends.
                try shards.add(input: item.archiveNumber, rawName: item.rawName, data: image)
                imagePath = shards.path(ofInput: item.archiveNumber)
            } else if let image = rendered.image {
                imagePath = try imageName("\(OutputLayout.imagesFolder)/\(stem)", rendered.imageExtension)
                let member = try sink.write(image, to: imagePath)
                outputs.append(.init(path: imagePath, bytes: image.count, sha256: sha256Hex(image), member: member))
            }
            if try writeCrops(of: &rendered.record, under: "\(OutputLayout.cropsFolder)/\(stem)", outputs: &outputs),
               rendered.faceJSON != nil {
                rendered.faceJSON = FaceJSONEncoder.encode(rendered.record)
            }
            if let json = rendered.faceJSON {
                jsonPath = "\(OutputLayout.facesFolder)/\(stem).json"
                let member = try sink.write(json, to: jsonPath)
                outputs.append(.init(path: jsonPath, bytes: json.count, sha256: sha256Hex(json), member: member))
            }
            rows = Manifest.rows(for: rendered.record, output: imagePath, facesJSON: jsonPath)
            summary.cacheHits += cacheHits
            let counts = CompletionRecord.Counts(
                faces: rendered.record.faces.count, keptFaces: rendered.record.faces.filter(\.isKept).count,
                megapixels: Double(rendered.record.width) * Double(rendered.record.height) / 1e6)
            add(counts)
            // A frame inside a video is not resumed: the video is written whole, so a resumed run redoes it (from the stage cache).
            if !intoVideo {
                try completions.store(CompletionRecord(
                    identity: identity(archive: item.archiveNumber, archiveName: item.archiveName, entryName: item.entryName,
                                       index: index, contentHash: contentHash, frame: item.frame),
                    rows: rows, outputs: outputs, counts: counts, record: beforePasses))
            }
        case let .failed(reason, contentHash, partial):
            let counts = CompletionRecord.Counts(failed: true)
            add(counts)
            if shards != nil {
                summary.leftOutOfShards.append(.init(archive: item.archiveName, index: index, name: item.entryName, reason: reason))
            }
            var nothing = EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in passes { pass.apply(to: &nothing) }
            rows = [Manifest.errorRow(archive: item.archiveName, entry: item.entryName, index: index, reason: reason,
                                      known: partial, frame: item.frame, time: item.time)]
            try completions.store(CompletionRecord(
                identity: identity(archive: item.archiveNumber, archiveName: item.archiveName, entryName: item.entryName,
                                   index: index, contentHash: contentHash, frame: item.frame),
                rows: rows, outputs: [], counts: counts))
        case .resumed(let record):
            // Its files stay where they are; an output tar counts them in its current tar (or adds them again).
            if !record.counts.failed { try sink.beginEntry() }
            // Its image keeps its name: claimed again, so an entry done anew after it cannot take it.
            for output in record.outputs where output.path.hasPrefix(OutputLayout.imagesFolder + "/") {
                _ = try claimedNames.insert(Self.imageKey(output.path))
            }
            var moved = record
            moved.outputs = try record.outputs.map { try sink.resume($0) }
            if moved != record { try completions.store(moved) }
            summary.resumedEntries += 1
            var replay = record.record ?? EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in passes { pass.apply(to: &replay) }
            rows = record.rows
            add(record.counts)
        case .archiveFailed, .copied, .inputEnded:
            return
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

    /// Writes the faces' aligned crops into `folder` and records their
    /// paths, sizes and SHA-256 (the PNG bytes are dropped); whether there was one.
    private func writeCrops(of record: inout EntryRecord, under folder: String, outputs: inout [CompletionRecord.Output]) throws -> Bool {
        var wrote = false
        for i in record.faces.indices {
            for j in record.faces[i].crops.indices {
                let crop = record.faces[i].crops[j]
                let cropPath = "\(folder)/\(crop.fileName(face: record.faces[i].face))"
                let member = try sink.write(crop.png, to: cropPath)
                outputs.append(.init(path: cropPath, bytes: crop.png.count, sha256: sha256Hex(crop.png), member: member))
                record.faces[i].crops[j].path = cropPath
                record.faces[i].crops[j].png = []
                wrote = true
            }
        }
        return wrote
    }

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
    private func append(_ rows: [[String]]) throws -> Int {
        let bytes = Array(rows.map(Manifest.csvLine).joined().utf8)
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
