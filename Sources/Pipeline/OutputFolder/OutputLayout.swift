import Foundation

/// The output folder's fixed layout (see docs/OUTPUTS.md).
struct OutputLayout {
    let root: URL
    var manifest: URL { root.appendingPathComponent("manifest.csv") }
    var runJSON: URL { root.appendingPathComponent("run.json") }
    /// With `--output-tar`: images/… and faces/… inside one archive.
    var outputTar: URL { root.appendingPathComponent("outputs.tar") }

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
