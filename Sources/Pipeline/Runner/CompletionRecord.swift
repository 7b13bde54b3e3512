import Foundation

/// Proof that one entry's outputs were fully written: stored last, under
/// `DIR/.cache/done/<archive#>/<entry index>.json`, holding the entry's
/// manifest rows. `--resume` reuses an entry only when its record matches the
/// same pipeline fingerprint, output options and entry content.
struct CompletionRecord: Codable, Sendable, Equatable {
    var pipelineFingerprint: String
    var outputSignature: String
    var contentHash: String
    var rows: [[String]]
    var outputs: [String]
    /// What the entry adds to the run summary, so a resumed entry counts
    /// the same as a processed one without reading its rows back.
    var counts: Counts
    /// The record before in-order passes, kept only when the pipeline has
    /// some (a resumed run replays them to rebuild their state).
    var record: EntryRecord? = nil

    struct Counts: Codable, Sendable, Equatable {
        var faces = 0
        var keptFaces = 0
        var failed = false
        var megapixels = 0.0
    }
}
