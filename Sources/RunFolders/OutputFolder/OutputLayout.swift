import Foundation
import Pipeline

/// A run folder's layout (docs/OUTPUTS.md): the one place that names its
/// files and folders. Everything else (the runner, the writer, the sinks,
/// the report, export, merge, the input that refuses to read a run folder)
/// takes the names from here.
package struct OutputLayout {
    package let root: URL
    var manifest: URL { root.appendingPathComponent(Self.manifestName) }
    var runJSON: URL { root.appendingPathComponent(Self.runRecordName) }
    /// With `--output-tar`: images/…, faces/… and crops/… inside numbered
    /// tars in this folder (``TarSink``).
    var outputTars: URL { root.appendingPathComponent(Self.outputTarsFolder) }

    // MARK: - Names

    /// One row per face, ``Manifest``.
    package static let manifestName = "manifest.csv"
    /// What produced the results, ``RunRecord``.
    package static let runRecordName = "run.json"
    /// The entries a run did not process, ``SkippedFile``.
    package static let skippedName = "skipped.csv"
    /// The page `facepipe report` writes, ``RunReport``.
    package static let reportName = "report.html"
    /// Annotated images, per-image JSON and aligned crops, each under
    /// `<folder>/<archive stem>/`.
    package static let imagesFolder = "images"
    package static let facesFolder = "faces"
    package static let cropsFolder = "crops"
    /// The folders that hold an entry's output files (a shard's too).
    package static let outputFolders = [imagesFolder, facesFolder, cropsFolder]
    /// The folder of the numbered output tars, at the top of DIR.
    package static let outputTarsFolder = "outputs"
    /// `--redacted-shards`' shards, one per input tar.
    package static let redactedFolder = "redacted"
    /// The stage cache and the completion records.
    package static let cacheFolder = ".cache"
    /// The completion records (``CompletionStore``).
    package static let completionsFolder = cacheFolder + "/done"
    /// Cached stage results (``StageCache``).
    package static let stageCacheFolder = cacheFolder + "/stages"
    /// The run's lock (``OutputLock``).
    package static let lockName = ".lock"
    /// A sharded run's shard folders, `shards/<i>-of-<n>/`.
    package static let shardsFolder = "shards"
    /// Written last by a shard that finished (``ShardCompletion``).
    package static let shardCompletionName = "_SUCCESS"
    /// The output files of a shard, sealed by its `_SUCCESS` (``ShardFileList``).
    package static let shardFileListName = "_SUCCESS.files"
    /// The name of tar `number` in ``outputTarsFolder`` (`000042.tar`).
    package static func outputTarName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".tar"
    }
    /// The single output tar of facepipe before numbered tars, and the
    /// partial file of one being written: removed when a run writes the
    /// numbered tars, and by `--overwrite`.
    package static let singleOutputTarNames = [singleOutputTarName, singleOutputTarName + ".partial"]
    /// The single output tar of facepipe before numbered tars.
    package static let singleOutputTarName = "outputs.tar"

    /// Everything facepipe writes at the top of an output folder (what
    /// `--overwrite` removes; `outputs.tar` and `outputs.tar.partial` are
    /// the single tar of facepipe before numbered tars).
    package static let facepipeNames = [manifestName, runRecordName, skippedName, reportName] + outputFolders
        + [redactedFolder, outputTarsFolder] + singleOutputTarNames + [cacheFolder]

    /// `names` (of ``facepipeNames``) as a message or help text lists them:
    /// a folder with a `/`, the last one after "and" (`run --overwrite`'s
    /// help, the refusal of another run's folder).
    package static func listed(_ names: [String]) -> String {
        let folders = Set(outputFolders + [redactedFolder, outputTarsFolder, cacheFolder])
        let shown = names.map { folders.contains($0) ? $0 + "/" : $0 }
        guard let last = shown.last, shown.count > 1 else { return shown.joined() }
        return shown.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The folder of `shard` below a sharded run's folder, `shards/<i>-of-<n>`.
    package static func shardFolder(_ shard: Shard) -> String { shardsFolder + "/" + shard.folderName }

    /// Creates the folder if needed; refuses an existing non-folder.
    package static func prepare(_ url: URL) throws(PipelineError) -> OutputLayout {
        let root = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .outputUnusable(path: root.path, reason: "exists and is not a folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            } catch {
                throw .outputUnusable(path: root.path, reason: "cannot create: \(OSReason(error, about: root.path))")
            }
        }
        guard FileManager.default.isWritableFile(atPath: root.path) else {
            throw .outputUnusable(path: root.path, reason: "not writable")
        }
        return OutputLayout(root: root)
    }
}
