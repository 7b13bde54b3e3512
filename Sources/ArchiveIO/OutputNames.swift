/// Assigns output paths to the entries of one archive, in archive order: the
/// first entry with a given path keeps `SafeOutputPath.relativePath`, later
/// entries with the same path get `SafeOutputPath.disambiguated(_:index:)`.
/// Deterministic as long as entries are claimed in archive order.
public struct OutputNames: Sendable {
    private var used: Set<String> = []

    public init() {}

    /// The relative output path for the entry with `rawName` at `index`.
    public mutating func claim(rawName: [UInt8], index: Int) -> String {
        let path = SafeOutputPath.relativePath(forRawName: rawName)
        if used.insert(path).inserted { return path }
        let distinct = SafeOutputPath.disambiguated(path, index: index)
        used.insert(distinct)
        return distinct
    }

    /// The relative output path for `entry`.
    public mutating func claim(_ entry: ArchiveEntry) -> String {
        claim(rawName: entry.rawName, index: entry.index)
    }
}
