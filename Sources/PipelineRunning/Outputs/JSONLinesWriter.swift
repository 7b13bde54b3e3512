import Foundation
import RunFolders

/// Writes one JSON line per entry, in input order, to a file handle
/// (`facepipe detect`): `{"file", "width", "height", "faces": [{"x", "y",
/// "w", "h", "score"}]}` with the kept faces in upright-image pixels, or
/// `{"file", "error"}` for an input or entry that failed. `file` is the
/// input's name as given; an archive's entries add `#<entry>`; a video
/// file's frames are lines of the file with its `frame` (0-based, counting
/// every decoded frame) and `time` (seconds, to the microsecond): the
/// entry's name says which (``EntryName/jsonFile(input:)``).
final class JSONLinesWriter: EntryWriter {
    private let output: FileHandle
    private let encoder: JSONEncoder
    private(set) var summary = RunSummary()

    init(output: FileHandle) {
        self.output = output
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func reusableCompletion(archive: Int, archiveName: String, entryName: String, index: Int,
                            contentHash: String, frame: Int?) -> CompletionRecord? { nil }

    func addSkipped(_ skipped: RunSummary.SkippedRecord) {
        summary.addSkipped(skipped)
    }

    func markInterrupted() { summary.interrupted = true }

    func write(_ item: SequencedOutcome) throws {
        func file(framed: Bool) -> String { item.entry?.jsonFile(input: item.archiveName, framed: framed) ?? item.archiveName }
        let line: Data
        switch item.outcome {
        case .rendered(let rendered, _, _):
            summary.entries += 1
            let record = rendered.record
            let kept = record.faces.filter(\.isKept)
            summary.faces += record.faces.count
            summary.keptFaces += kept.count
            summary.megapixels += Double(record.width * record.height) / 1e6
            // The time to the microsecond, as the manifest gives it.
            line = try encoder.encode(Line(file: file(framed: true), frame: record.frame, time: record.time.map { ($0 * 1_000_000).rounded() / 1_000_000 }, width: record.width, height: record.height,
                                           faces: kept.map {
                Line.Face(x: $0.box.x, y: $0.box.y, w: $0.box.width, h: $0.box.height, score: $0.confidence)
            }))
        case .failed(let reason, _, _):
            summary.entries += 1
            summary.failedEntries += 1
            line = try encoder.encode(ErrorLine(file: file(framed: false), error: reason))
        case .archiveFailed(let reason):
            summary.failedArchives += 1
            line = try encoder.encode(ErrorLine(file: file(framed: false), error: reason))
        case .resumed, .copied, .inputEnded:
            return
        }
        try output.write(contentsOf: line + Data("\n".utf8))
    }

    func finish() throws {}

    private struct Line: Encodable {
        struct Face: Encodable {
            let x, y, w, h, score: Float
        }

        let file: String
        let frame: Int?
        let time: Double?
        let width: Int
        let height: Int
        let faces: [Face]
    }

    private struct ErrorLine: Encodable {
        let file: String
        let error: String
    }
}
