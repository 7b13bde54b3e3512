import ArgumentParser
import FaceAnalysis
import Foundation
import Inference

/// `facepipe-probes plan`: how long planning the full-range detector takes
/// at 384×384, from the file and re-planned with shared constants
/// (`Model.resized`, what each new canvas size costs). Prints
/// "PLAN TIMING full range 384×384: …".
struct PlanTimings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Planning time of the full-range detector at 384×384: from the file, and re-planned with shared constants."
    )

    func run() throws {
        let url = URL(fileURLWithPath: "models").appendingPathComponent(FaceModel.fullRangeDetector.fileName)
        let base = try Model(contentsOf: url)
        let fromFile = try Stopwatch.median(5, warmUp: false) { _ = try Model(contentsOf: url, inputShape: [1, 384, 384, 3]) }
        let replanned = try Stopwatch.median(5, warmUp: false) { _ = try base.resized(inputShape: [1, 384, 384, 3]) }
        print("PLAN TIMING full range 384×384: from the file \(fromFile) ms, resized with shared constants \(replanned) ms")
    }
}
