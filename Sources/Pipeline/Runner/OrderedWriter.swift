import Foundation

/// Writes outcomes in sequence order: image and JSON files, completion
/// records, manifest rows. Runs on the producer's task only (never
/// concurrently), so it needs no locks.
final class OrderedWriter: EntryWriter {
    private let sink: any OutputSink
    private let manifest: FileHandle
    private let completions: CompletionStore
    private let pipelineFingerprint: String
    private let outputSignature: String
    private var archiveFolders: [Int: String] = [:]
    private var archiveFolderClaimer = OutputPathClaimer()
    private var entryClaimers: [Int: OutputPathClaimer] = [:]
    private(set) var summary = RunSummary()
    private let orderedPasses: [any OrderedRecordPass]
    private var currentArchive: Int?

    init(sink: any OutputSink, manifestURL: URL, completions: CompletionStore,
         pipelineFingerprint: String, outputSignature: String, orderedPasses: [any OrderedRecordPass] = []) throws {
        self.orderedPasses = orderedPasses
        _ = FileManager.default.createFile(atPath: manifestURL.path, contents: nil)
        manifest = try FileHandle(forWritingTo: manifestURL)
        try manifest.truncate(atOffset: 0)
        self.sink = sink
        self.completions = completions
        self.pipelineFingerprint = pipelineFingerprint
        self.outputSignature = outputSignature
        try append([Manifest.columns])
    }

    deinit { try? manifest.close() }

    /// A completion record for this entry that this run may reuse, if any.
    func reusableCompletion(archive: Int, archiveName: String, entryName: String, index: Int,
                            contentHash: String) -> CompletionRecord? {
        completions.reusable(identity(archive: archive, archiveName: archiveName, entryName: entryName,
                                      index: index, contentHash: contentHash))
    }

    private func identity(archive: Int, archiveName: String, entryName: String, index: Int,
                          contentHash: String) -> CompletionRecord.Identity {
        CompletionRecord.Identity(archiveNumber: archive, archive: archiveName, entry: entryName, index: index,
                                  contentHash: contentHash, pipelineFingerprint: pipelineFingerprint,
                                  outputSignature: outputSignature)
    }

    func addSkipped(_ skipped: RunSummary.SkippedRecord) {
        summary.skipped.append(skipped)
    }

    func markInterrupted() { summary.interrupted = true }

    func write(_ item: SequencedOutcome) throws {
        let folder = archiveFolder(item.archiveNumber, name: item.archiveName)
        switch item.outcome {
        case .archiveFailed(let reason):
            summary.failedArchives += 1
            try append([Manifest.errorRow(archive: item.archiveName, entry: item.entryName, index: item.index, reason: reason)])
            return
        default:
            break
        }
        let index = item.index ?? 0
        if currentArchive != item.archiveNumber {
            currentArchive = item.archiveNumber
            for pass in orderedPasses { pass.beginArchive() }
        }
        let path = entryClaimers[item.archiveNumber, default: OutputPathClaimer()].claim(rawName: item.rawName, index: index)
        summary.entries += 1
        let rows: [[String]]
        switch item.outcome {
        case .rendered(var rendered, let contentHash, let cacheHits):
            let beforePasses = orderedPasses.isEmpty ? nil : rendered.record
            if !orderedPasses.isEmpty {
                for pass in orderedPasses { pass.apply(to: &rendered.record) }
                if rendered.faceJSON != nil { rendered.faceJSON = FaceJSONEncoder.encode(rendered.record) }
            }
            var outputs: [CompletionRecord.Output] = []
            var imagePath = "", jsonPath = ""
            if let image = rendered.image {
                imagePath = "images/\(folder)/\(path).\(rendered.imageExtension)"
                try sink.write(image, to: imagePath)
                outputs.append(.init(path: imagePath, bytes: image.count, sha256: sha256Hex(image)))
            }
            if let json = rendered.faceJSON {
                jsonPath = "faces/\(folder)/\(path).json"
                try sink.write(json, to: jsonPath)
                outputs.append(.init(path: jsonPath, bytes: json.count, sha256: sha256Hex(json)))
            }
            rows = Manifest.rows(for: rendered.record, output: imagePath, facesJSON: jsonPath)
            summary.cacheHits += cacheHits
            let counts = CompletionRecord.Counts(
                faces: rendered.record.faces.count, keptFaces: rendered.record.faces.filter(\.isKept).count,
                megapixels: Double(rendered.record.width) * Double(rendered.record.height) / 1e6)
            add(counts)
            try completions.store(CompletionRecord(
                identity: identity(archive: item.archiveNumber, archiveName: item.archiveName, entryName: item.entryName,
                                   index: index, contentHash: contentHash),
                rows: rows, outputs: outputs, counts: counts, record: beforePasses))
        case let .failed(reason, contentHash, partial):
            let counts = CompletionRecord.Counts(failed: true)
            add(counts)
            var nothing = EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in orderedPasses { pass.apply(to: &nothing) }
            rows = [Manifest.errorRow(archive: item.archiveName, entry: item.entryName, index: index, reason: reason,
                                      known: partial)]
            try completions.store(CompletionRecord(
                identity: identity(archive: item.archiveNumber, archiveName: item.archiveName, entryName: item.entryName,
                                   index: index, contentHash: contentHash),
                rows: rows, outputs: [], counts: counts))
        case .resumed(let record):
            summary.resumedEntries += 1
            var replay = record.record ?? EntryRecord(archive: item.archiveName, entry: item.entryName, index: index)
            for pass in orderedPasses { pass.apply(to: &replay) }
            rows = record.rows
            add(record.counts)
        case .archiveFailed:
            return
        }
        try append(rows)
    }

    private func add(_ counts: CompletionRecord.Counts) {
        summary.faces += counts.faces
        summary.keptFaces += counts.keptFaces
        summary.megapixels += counts.megapixels
        if counts.failed { summary.failedEntries += 1 }
    }

    func finish() throws {
        try sink.finish()
        try manifest.synchronize()
    }

    private func archiveFolder(_ number: Int, name: String) -> String {
        if let folder = archiveFolders[number] { return folder }
        let folder = archiveFolderClaimer.claim(rawName: Array(name.utf8).filter { $0 != UInt8(ascii: "/") }, index: number)
        archiveFolders[number] = folder
        return folder
    }

    private func append(_ rows: [[String]]) throws {
        let text = rows.map(Manifest.csvLine).joined()
        try manifest.write(contentsOf: Data(text.utf8))
    }
}
