import Pipeline

/// Proof that one entry's outputs were fully written: stored last, under
/// `DIR/.cache/done` (a ``RecordPack``, sealed by
/// ``SealedRecord``), holding the entry's manifest rows. `--resume` reuses
/// an entry only when the record is intact, stands for exactly this entry
/// (``Identity``: input number and name, entry name, index and content,
/// pipeline fingerprint, output options) and every output it names is
/// still there with its recorded size and SHA-256 (a file under DIR, or a
/// member of a finished tar: ``TarMember``).
package struct CompletionRecord: Codable, Sendable, Equatable {
    /// The inputs the record stands for.
    package struct Identity: Codable, Sendable, Equatable {
        package var archiveNumber: Int
        package var archive: String
        package var entry: String
        package var index: Int
        package var contentHash: String
        package var pipelineFingerprint: String
        package var outputSignature: String
        /// A video frame's index in its video (its record lives beside the
        /// video's other frames'); nil, and not in the coded form, otherwise.
        package var frame: Int? = nil

        package init(archiveNumber: Int, archive: String, entry: String, index: Int, contentHash: String, pipelineFingerprint: String, outputSignature: String, frame: Int? = nil) {
            self.archiveNumber = archiveNumber
            self.archive = archive
            self.entry = entry
            self.index = index
            self.contentHash = contentHash
            self.pipelineFingerprint = pipelineFingerprint
            self.outputSignature = outputSignature
            self.frame = frame
        }
    }

    /// An output file (relative to DIR, or inside an `--output-tar` tar) as it was written.
    package struct Output: Codable, Sendable, Equatable {
        package var path: String
        package var bytes: Int
        package var sha256: String
        /// Where in which tar, with `--output-tar`; nil (and not in the coded form) for a file under DIR.
        package var member: TarMember? = nil

        package init(path: String, bytes: Int, sha256: String, member: TarMember? = nil) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.member = member
        }
    }

    package var identity: Identity
    package var rows: [ManifestRow]
    package var outputs: [Output]
    /// What the entry adds to the run summary, so a resumed entry counts
    /// the same as a processed one without reading its rows back.
    package var counts: Counts
    /// The record before in-order passes, kept only when the pipeline has
    /// some (a resumed run replays them to rebuild their state).
    package var record: EntryRecord? = nil

    package struct Counts: Codable, Sendable, Equatable {
        package var faces = 0
        package var keptFaces = 0
        package var failed = false
        package var megapixels = 0.0

        package init(faces: Int = 0, keptFaces: Int = 0, failed: Bool = false, megapixels: Double = 0.0) {
            self.faces = faces
            self.keptFaces = keptFaces
            self.failed = failed
            self.megapixels = megapixels
        }
    }

    /// Why the record's values cannot be used as they are (rows of another
    /// width than the manifest's, impossible counts, a damaged replay
    /// record), or nil.
    package var damage: String? {
        // A row of another width than the manifest's does not decode (``ManifestRow``).
        guard !rows.isEmpty else { return "no manifest row" }
        guard counts.faces >= 0, (0...counts.faces).contains(counts.keptFaces),
              counts.megapixels.isFinite, counts.megapixels >= 0 else { return "impossible counts" }
        for output in outputs where output.bytes < 0 { return "\(output.path): \(output.bytes) bytes" }
        return record?.damage
    }

    package init(identity: Identity, rows: [ManifestRow], outputs: [Output], counts: Counts, record: EntryRecord? = nil) {
        self.identity = identity
        self.rows = rows
        self.outputs = outputs
        self.counts = counts
        self.record = record
    }
}
