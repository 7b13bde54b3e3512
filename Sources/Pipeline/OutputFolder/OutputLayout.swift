import Foundation

/// The output folder's fixed layout (see docs/OUTPUTS.md).
struct OutputLayout {
    let root: URL
    var manifest: URL { root.appendingPathComponent("manifest.csv") }
    var runJSON: URL { root.appendingPathComponent("run.json") }
    /// With `--output-tar`: images/…, faces/… and crops/… inside numbered
    /// tars in this folder (``TarSink``).
    var outputTars: URL { root.appendingPathComponent(TarSink.folderName) }
    /// The single output tar of facepipe before numbered tars, and the
    /// partial file of one being written: removed when a run writes the
    /// numbered tars, and by `--overwrite`.
    static let singleOutputTarNames = ["outputs.tar", "outputs.tar.partial"]

    /// Creates the folder if needed; refuses an existing non-folder.
    static func prepare(_ url: URL) throws(PipelineError) -> OutputLayout {
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
