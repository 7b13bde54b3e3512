import Foundation
import Pipeline
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
    private(set) var summary = RunSummary()

    init(output: FileHandle) {
        self.output = output
    }

    func reusableCompletion(archive: Int, archiveName: String, entryName: String, index: Int,
                            contentHash: String, frame: Int?) -> CompletionRecord? { nil }

    func addSkipped(_ skipped: RunSummary.SkippedRecord) {
        summary.addSkipped(skipped)
    }

    func markInterrupted() { summary.interrupted = true }

    /// A line's content, in order (there are no ordered passes here).
    func order(_ item: SequencedOutcome) -> LineRendering {
        func file(framed: Bool) -> String { item.entry?.jsonFile(input: item.archiveName, framed: framed) ?? item.archiveName }
        switch item.outcome {
        case .rendered(let rendered, _, _): return LineRendering(file: file(framed: true), content: .entry(rendered.record))
        case .failed(let reason, _, _): return LineRendering(file: file(framed: false), content: .entryFailed(reason))
        case .archiveFailed(let reason): return LineRendering(file: file(framed: false), content: .archiveFailed(reason))
        case .resumed, .copied, .inputEnded: return LineRendering(file: "", content: .none)
        }
    }

    /// Counts the line's entry and writes its bytes.
    func place(_ encoded: EncodedLine) throws {
        switch encoded.content {
        case .entry(let record):
            summary.entries += 1
            summary.faces += record.faces.count
            summary.keptFaces += record.faces.filter(\.isKept).count
            summary.megapixels += Double(record.width * record.height) / 1e6
        case .entryFailed:
            summary.entries += 1
            summary.failedEntries += 1
        case .archiveFailed:
            summary.failedArchives += 1
        case .none:
            return
        }
        try output.write(contentsOf: encoded.line)
    }

    func finish() throws {}

    /// One position's line before it is encoded: whose it is and what it says.
    struct LineRendering: EntryRendering {
        let file: String
        let content: Content

        enum Content: Sendable {
            case entry(EntryRecord)
            case entryFailed(String)
            case archiveFailed(String)
            /// Nothing to print (a resumed entry, a copied member, an input's end).
            case none
        }

        var encodes: Bool {
            if case .none = content { return false }
            return true
        }

        var heldBytes: Int { 0 }

        /// The line, encoded: the kept faces in upright-image pixels; the time to the microsecond, as the manifest gives it.
        func encoded() throws -> EncodedLine {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let line: Data
            switch content {
            case .entry(let record):
                line = try encoder.encode(Line(file: file, frame: record.frame, time: record.time.map { ($0 * 1_000_000).rounded() / 1_000_000 },
                                               width: record.width, height: record.height,
                                               faces: record.faces.filter(\.isKept).map {
                    Line.Face(x: $0.box.x, y: $0.box.y, w: $0.box.width, h: $0.box.height, score: $0.confidence)
                }))
            case .entryFailed(let reason), .archiveFailed(let reason):
                line = try encoder.encode(ErrorLine(file: file, error: reason))
            case .none:
                line = Data()
            }
            return EncodedLine(content: content, line: line.isEmpty ? Data() : line + Data("\n".utf8))
        }
    }

    /// A line ready to print, and what it counts.
    struct EncodedLine: EncodedPosition {
        let content: LineRendering.Content
        let line: Data
        var heldBytes: Int { line.count }
    }

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
