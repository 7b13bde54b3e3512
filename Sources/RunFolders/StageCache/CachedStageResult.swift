import Pipeline

/// One stage cache file's content: a stage's result for one entry content,
/// with the inputs it stands for (the entry's content hash and the stage's
/// fingerprint), which a lookup compares with its own before trusting it.
package struct CachedStageResult: Codable, Sendable, Equatable {
    package var contentHash: String
    package var stageFingerprint: String
    package var record: EntryRecord

    package init(contentHash: String, stageFingerprint: String, record: EntryRecord) {
        self.contentHash = contentHash
        self.stageFingerprint = stageFingerprint
        self.record = record
    }
}
