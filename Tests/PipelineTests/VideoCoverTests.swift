import Foundation
import Pipeline
import PipelineRunning
import Testing

/// A redacting pipeline covers a tracked face in the video frames where
/// the detector missed it (`TrackCover` on the writer): the red square
/// "detected" in every frame but two is blacked out in all of them.
@Suite struct VideoCoverTests {
    /// Drops the detections of the frames listed: a detector that misses.
    struct MissFrames: Stage {
        var frames: Set<Int>
        var definition: StageDefinition { StageDefinition("miss-frames") }
        var caching: StageCaching { .records }
        func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
            var frame = frame
            if let index = frame.record.frame, frames.contains(index) { frame.record.faces = [] }
            return frame
        }
    }

    static func pipeline(missing: Set<Int>) -> Pipeline {
        Pipeline("video-cover") {
            Decode()
            Orient()
            DetectReddish()
            MissFrames(frames: missing)
            Redact(.fill)
            WriteOutputs(images: ppmOutput, faceJSON: false)
        }.trackingFacesInVideo()
    }

    /// Strongly red pixels in each frame of `video` (decoded by ffmpeg to PPM files).
    static func redPixelsPerFrame(_ video: URL, in folder: URL) throws -> [Int] {
        let frames = folder.appendingPathComponent("frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try VideoClips.ffmpeg(["-i", video.path], output: frames.appendingPathComponent("%03d.ppm"))
        let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
        return try names.map { name in
            let box = try VideoClips.redBox(ppm: frames.appendingPathComponent(name))
            return box[0] == Int.max ? 0 : box[2] * box[3]
        }
    }

    @Test func aFaceMissedForTwoFramesBetweenDetectionsIsStillCovered() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 12)
        var covered: [Int?] = []
        for missing: Set<Int> in [[], [5, 6]] {
            let out = folder.appendingPathComponent("out-\(missing.count)")
            let plan = try Self.pipeline(missing: missing).compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
            #expect(plan.videoCover != nil)
            let summary = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path)],
                                                       configuration: RunConfiguration(outputDirectory: out, workers: 2),
                                                       toolVersion: "test")
            let red = try Self.redPixelsPerFrame(out.appendingPathComponent("images/clip.mp4/clip.mp4"), in: folder)
            #expect(red.count == 12)
            #expect(red == Array(repeating: 0, count: 12), "red pixels left per frame with frames \(missing.sorted()) missed: \(red)")
            covered.append(summary.coveredVideoRegions)
            // The manifest lists what was detected: frames 5 and 6 without a face.
            let rows = try ManifestReadBack.check(out)
            #expect(rows.filter { $0["status"] == "no_face" }.count == missing.count)
        }
        #expect(covered == [0, 2])
        // Without a redacting stage nothing is covered and the square stays.
        let plain = Pipeline("video-plain") {
            Decode()
            Orient()
            DetectReddish()
            InvertBoxes()
            WriteOutputs(images: ppmOutput, faceJSON: false)
        }.trackingFacesInVideo()
        let plan = try plain.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        #expect(plan.videoCover == nil)
    }
}
