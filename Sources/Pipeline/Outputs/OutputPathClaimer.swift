import ArchiveIO

/// Output paths for one archive's entries: ``SafeOutputPath`` rules (never
/// leaves the output folder, stable), duplicates told apart by entry index,
/// claimed in archive order so the result is deterministic.
struct OutputPathClaimer {
    private var names = OutputNames()

    mutating func claim(rawName: [UInt8], index: Int) -> String {
        names.claim(entryRawName: rawName, index: index)
    }
}
