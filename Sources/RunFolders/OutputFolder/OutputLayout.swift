import Foundation
import Pipeline

/// The output folder's fixed layout (see docs/OUTPUTS.md).
package struct OutputLayout {
    package let root: URL
    var manifest: URL { root.appendingPathComponent("manifest.csv") }
    var runJSON: URL { root.appendingPathComponent("run.json") }
    /// With `--output-tar`: images/…, faces/… and crops/… inside numbered
    /// tars in this folder (``TarSink``).
    var outputTars: URL { root.appendingPathComponent(Self.outputTarsFolder) }
    /// The folder of the numbered output tars, at the top of DIR.
    package static let outputTarsFolder = "outputs"
    /// The name of tar `number` in ``outputTarsFolder`` (`000042.tar`).
    package static func outputTarName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".tar"
    }
    /// The single output tar of facepipe before numbered tars, and the
    /// partial file of one being written: removed when a run writes the
    /// numbered tars, and by `--overwrite`.
    package static let singleOutputTarNames = ["outputs.tar", "outputs.tar.partial"]

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
