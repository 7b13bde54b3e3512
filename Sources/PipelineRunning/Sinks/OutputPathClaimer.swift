import ArchiveIO

/// Output paths for one archive's entries, as `OutputNames` gives them
/// (from the 10 000th entry on, in numbered folders):
/// ``SafeOutputPath`` rules (never leaves the output folder, stable),
/// duplicates told apart by entry index, claimed in archive order so the
/// result is deterministic. The paths claimed so far are kept on disk
/// (``ClaimedNames``, shared by every archive of the run, each under its
/// own key), so a tar of a hundred million entries takes no more memory
/// than one of ten.
struct OutputPathClaimer {
    let archive: Int
    let names: ClaimedNames

    func claim(rawName: [UInt8], index: Int) throws -> String {
        let path = OutputNames.firstPath(forRawName: OutputNames.inNumberedFolder(rawName, index: index))
        if try names.insert(key(path)) { return path }
        let distinct = SafeOutputPath.disambiguated(path, index: index)
        _ = try names.insert(key(distinct))
        return distinct
    }

    /// The archive's own name for `path` in the shared set (a path never holds NUL).
    private func key(_ path: String) -> String { "entry\0\(archive)\0" + path }
}
