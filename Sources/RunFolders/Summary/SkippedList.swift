import Pipeline

/// Entries a run skipped (or left out of its redacted shards), as run.json
/// and the summary line keep them: the exact count and the first
/// ``exampleLimit`` in archive order. The whole list is streamed to a file
/// of the output folder as entries are seen (`SkippedFile`), so memory and
/// run.json stay the same size at 100 entries and at 100 million.
public struct SkippedList: Sendable, Equatable {
    /// How many entries run.json names.
    public static let exampleLimit = 100

    /// Every entry added.
    public private(set) var count = 0
    /// The first ``exampleLimit`` entries added, in order.
    public private(set) var first: [RunSummary.SkippedRecord] = []

    public init() {}

    public init(_ records: [RunSummary.SkippedRecord]) {
        for record in records { append(record) }
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func append(_ record: RunSummary.SkippedRecord) {
        count += 1
        if first.count < Self.exampleLimit { first.append(record) }
    }

    /// `other`'s entries after these (a later shard's, in shard order).
    public mutating func append(contentsOf other: SkippedList) {
        count += other.count
        first += other.first.prefix(max(0, Self.exampleLimit - first.count))
    }
}

/// In run.json: `{"count": N, "first": [...]}`. An array (what facepipe
/// wrote before the list was bounded) is read as that many entries, all named.
extension SkippedList: Codable {
    private enum CodingKeys: String, CodingKey { case count, first }

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var records: [RunSummary.SkippedRecord] = []
            while !array.isAtEnd { records.append(try array.decode(RunSummary.SkippedRecord.self)) }
            self.init(records)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        count = try container.decode(Int.self, forKey: .count)
        first = try container.decode([RunSummary.SkippedRecord].self, forKey: .first)
        guard first.count <= Self.exampleLimit, count >= first.count else {
            throw DecodingError.dataCorruptedError(forKey: .first, in: container,
                                                   debugDescription: "\(first.count) entries named for a count of \(count) (at most \(Self.exampleLimit) are)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(first, forKey: .first)
    }
}
