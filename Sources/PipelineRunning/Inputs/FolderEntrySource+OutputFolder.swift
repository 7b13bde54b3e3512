#if canImport(Glibc)
import Foundation
import Glibc
import RunFolders
#endif

extension FolderEntrySource {
    /// Whether the open folder `handle` holds a facepipe run's outputs: its
    /// lock file (``OutputLayout/lockName``, a regular file) with a
    /// `manifest.csv` or `run.json` beside it, or a `run.json` beside a
    /// `manifest.csv` that starts with facepipe's header (a copy of a run's
    /// folder without its hidden files). A run takes the lock and creates the
    /// manifest before it lists its inputs, and both stay after it, so this
    /// holds for the run's own `--out` and for earlier runs'.
    static func isOutputFolder(_ handle: OpaquePointer) -> Bool {
        let folder = dirfd(handle)
        guard folder >= 0 else { return false }
        func isRegularFile(_ name: String) -> Bool {
            var status = stat()
            return fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFREG
        }
        let manifest = isRegularFile(OutputLayout.manifestName), runJSON = isRegularFile(OutputLayout.runRecordName)
        if isRegularFile(OutputLayout.lockName) && (manifest || runJSON) { return true }
        return manifest && runJSON && startsWithManifestHeader(folder)
    }

    /// Whether `manifest.csv` in the folder `folder` starts with the first
    /// columns every facepipe manifest has (opened as a ``RegularFile``: no
    /// link followed, no FIFO waited on).
    private static func startsWithManifestHeader(_ folder: Int32) -> Bool {
        let header = Array(Manifest.columns.prefix(5).joined(separator: ",").utf8)
        return (try? RegularFile(OutputLayout.manifestName, in: folder).prefix(header.count)) == header
    }

    /// What facepipe writes at the top of an output folder
    /// (``OutputLayout/facepipeNames``), its lock, and its temporary files.
    static func isOutputName(_ name: [UInt8]) -> Bool {
        guard let text = String(validating: name, as: UTF8.self) else { return false }
        return outputNames.contains(text) || OutputDirectory.isTemporaryName(text)
    }

    private static let outputNames = Set(OutputLayout.facepipeNames + [OutputLayout.lockName])

    /// The skip reason of such a name.
    static let outputNameReason = "facepipe's own output: its folder holds a facepipe run's results (not read)"
}
