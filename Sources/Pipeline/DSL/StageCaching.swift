/// Whether a stage's results (never its pixels) may be served from the cache.
public struct StageCaching: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case never, records }
    let kind: Kind

    /// Always recomputed (decoding, drawing, encoding, stages that change pixels).
    public static let never = StageCaching(kind: .never)
    /// The stage only changes the ``EntryRecord`` (faces, scores, points) of a
    /// ``Frame``; its result is cached by entry content hash and fingerprint.
    public static let records = StageCaching(kind: .records)
}
