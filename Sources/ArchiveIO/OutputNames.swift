/// Assigns output paths to the entries of one archive, in archive order: the
/// first entry with a given path keeps `SafeOutputPath.relativePath` of its
/// name without leading `./` components (`./a/b.jpg`, as `tar -C dir .`
/// stores it, is `a/b.jpg`), later entries with the same path get
/// `SafeOutputPath.disambiguated(_:index:)`.
/// Deterministic as long as entries are claimed in archive order.
public struct OutputNames: Sendable {
    private var used: Set<String> = []

    public init() {}

    /// The relative output path for the entry with `rawName` at `index`.
    public mutating func claim(rawName: [UInt8], index: Int) -> String {
        let path = Self.firstPath(forRawName: rawName)
        if used.insert(path).inserted { return path }
        let distinct = SafeOutputPath.disambiguated(path, index: index)
        used.insert(distinct)
        return distinct
    }

    /// The path ``claim(rawName:index:)`` gives the first entry named
    /// `rawName` (a later one with the same path gets
    /// `SafeOutputPath.disambiguated(_:index:)`).
    public static func firstPath(forRawName rawName: [UInt8]) -> String {
        SafeOutputPath.relativePath(forRawName: withoutLeadingCurrentFolder(rawName))
    }

    /// `rawName` without its leading `./` components (`././a` → `a`); a
    /// name of only such components is kept as is.
    static func withoutLeadingCurrentFolder(_ rawName: [UInt8]) -> [UInt8] {
        var start = 0
        while rawName.count - start > 2, rawName[start] == 0x2E, rawName[start + 1] == 0x2F {
            start += 2
        }
        return Array(rawName[start...])
    }

    /// `name` without its leading `./` components, as
    /// `withoutLeadingCurrentFolder(_:)` on its bytes.
    public static func withoutLeadingCurrentFolder(_ name: String) -> String {
        String(decoding: withoutLeadingCurrentFolder(Array(name.utf8)), as: UTF8.self)
    }

    /// The relative output path for `entry`.
    public mutating func claim(_ entry: ArchiveEntry) -> String {
        claim(rawName: entry.rawName, index: entry.index)
    }

    /// Entries of one input in one folder before numbered folders begin.
    public static let entriesPerFolder = 10_000

    /// The relative output path for the entry with `rawName` at `index` of
    /// an input, with the number of files in any one output folder bounded:
    /// the entries before ``entriesPerFolder`` are named as by
    /// ``claim(rawName:index:)``; from there on each is put in the numbered
    /// folder `index / entriesPerFolder` (six digits: entries 10 000–19 999
    /// in `000001/`, …), its own folders kept below it (`000001/a/b.jpg`).
    /// The number is claimed with the name, so a member that is itself
    /// named `000001/…` is told apart as any repeated name is.
    public mutating func claim(entryRawName rawName: [UInt8], index: Int) -> String {
        claim(rawName: Self.inNumberedFolder(rawName, index: index), index: index)
    }

    /// `rawName` (without its leading `./`) below the numbered folder of
    /// `index` when there is one (see ``claim(entryRawName:index:)``).
    public static func inNumberedFolder(_ rawName: [UInt8], index: Int) -> [UInt8] {
        let name = withoutLeadingCurrentFolder(rawName)
        guard index >= entriesPerFolder else { return name }
        return Array(folderName(ofIndex: index).utf8) + [0x2F] + name
    }

    /// `000001` for the entries 10 000–19 999 (``entriesPerFolder``).
    public static func folderName(ofIndex index: Int) -> String {
        let digits = String(index / entriesPerFolder)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
