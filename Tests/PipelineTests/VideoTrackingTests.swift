import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import Testing
import _TestSupport

/// The built-in pipelines on a clip: a face panned across the picture keeps
/// one `tracking_id` in every frame, without a Track stage being asked for.
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: FileManager.default.fileExists(atPath: Fixtures.photo("Tom_Hanks_54745.png").path), "needs datasets/sources (make sources)"))
struct VideoTrackingTests {
    @Test(arguments: ["faces", "anonymize"])
    func aMovingFaceKeepsItsID(_ name: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("pan.mp4")
        try VideoClips.pannedFace(clip, photo: Fixtures.photo("Tom_Hanks_54745.png"), frames: 6)
        let plan = try PipelineRegistry.builtIn.named(name).compile(modelsDirectory: Fixtures.model(""))
        let out = folder.appendingPathComponent("out")
        let summary = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path)],
                                                   configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
        #expect(summary.failedEntries == 0)
        let rows = try ManifestReadBack.check(out).filter { $0["status"] == "ok" }
        // Every frame has its face, and it is face 1 of the video throughout.
        #expect(Set(rows.map { $0["frame"]! }) == Set((0..<6).map(String.init)), "\(rows.map { $0["entry"]! })")
        let largest = Dictionary(grouping: rows, by: { $0["frame"]! }).mapValues { faces in
            faces.max { Double($0["w"]!)! < Double($1["w"]!)! }!
        }
        #expect(Set(largest.values.map { $0["tracking_id"]! }) == ["1"])
        // The face moves right 12 px a frame.
        let x = (0..<6).map { Double(largest[String($0)]!["x"]!)! }
        #expect(zip(x, x.dropFirst()).allSatisfy { abs($1 - $0 - 12) < 4 }, "\(x)")
        // The frames (annotated, or redacted) are written back as one video of every frame.
        let video = out.appendingPathComponent("images/pan.mp4/pan.mp4")
        #expect(try VideoProbe.run(video, entries: "stream=codec_name,width,height,nb_read_frames", selectStreams: "v")
                == ["codec_name=h264", "width=480", "height=320", "nb_read_frames=6"])
    }
}
