/// How far a source has read its input: bytes of an archive file against
/// its size, entries of a folder against its listing, or bytes of a stream
/// with no total.
public struct ReadPosition: Sendable, Equatable {
    public enum Unit: Sendable, Equatable {
        /// Bytes of the file as read (compressed bytes for a compressed archive).
        case bytes
        /// Listed items (files, links… of a folder; entries of an in-memory input).
        case entries
    }

    public var unit: Unit
    public var done: Int64
    /// Nil when unknown: a stream (pipe, standard input), or a folder not listed yet.
    public var total: Int64?

    public init(unit: Unit, done: Int64, total: Int64?) {
        self.unit = unit
        self.done = done
        self.total = total
    }

    /// `done / total` within 0…1, or nil without a total (an empty input counts as read).
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(max(Double(done) / Double(total), 0), 1)
    }
}
