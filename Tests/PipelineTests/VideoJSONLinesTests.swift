import Foundation
import Pipeline
import PipelineRunning
import Testing

/// `facepipe detect`'s JSON lines (`PipelineRunner.runJSONLines`) over
/// files named on the command line (`RunInput.imageOrVideoFile`): a video
/// gives a line per frame, named by the file, with its frame and time, its
/// size turned by the container's rotation; stills and unreadable files
/// keep their lines.
@Suite struct VideoJSONLinesTests {
    static let pipeline = Pipeline("video-detect") {
        Decode()
        Orient()
        DetectReddish()
        Annotate([])
        WriteOutputs(images: .none, faceJSON: false)
    }

    @Test func aVideoGivesALinePerFrameBesideStills() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4"), phone = folder.appendingPathComponent("phone.mov")
        let still = folder.appendingPathComponent("still.png"), broken = folder.appendingPathComponent("broken.jpg")
        try VideoClips.movingSquare(clip, frames: 4)
        try VideoClips.rotatedSquare(phone, rotate: 90)
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=40x30", "-frames:v", "1"], output: still)
        try Data("not a picture".utf8).write(to: broken)
        let output = folder.appendingPathComponent("lines.jsonl")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let plan = try Self.pipeline.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        let summary = try await PipelineRunner.runJSONLines(plan, inputs: [still, clip, broken, phone].map { RunInput.imageOrVideoFile(path: $0.path) },
                                                            output: handle, workers: 2)
        try handle.close()
        #expect(summary.entries == 11 && summary.failedEntries == 1)
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        try #require(lines.count == 11)
        #expect(lines.map { $0["file"] as! String } == [still.path] + Array(repeating: clip.path, count: 4) + [broken.path] + Array(repeating: phone.path, count: 5))
        #expect(lines.map { $0["frame"] as? Int } == [nil, 0, 1, 2, 3, nil, 0, 1, 2, 3, 4])
        #expect(lines[1...4].map { $0["time"] as? Double } == [0, 0.1, 0.2, 0.3])
        #expect(lines[0]["time"] == nil && lines[0]["width"] as? Int == 40)
        #expect(lines[5]["error"] != nil && lines[5]["width"] == nil)
        // The square moves 4 px a frame; the phone's frames are upright, 120 × 160.
        let x = lines[1...4].map { (($0["faces"] as! [[String: Any]]).first?["x"] as? Double) ?? -1 }
        #expect(x.map { $0 - x[0] } == [0, 4, 8, 12])
        #expect(lines[6...].allSatisfy { $0["width"] as? Int == 120 && $0["height"] as? Int == 160 && ($0["faces"] as! [Any]).count == 1 })
    }

    /// `detect --every 2`: only frames 0 and 2 of a 4-frame clip get a line.
    @Test func aFrameSelectionSearchesFewerFrames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4"), output = folder.appendingPathComponent("lines.jsonl")
        try VideoClips.movingSquare(clip, frames: 4)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let plan = try Self.pipeline.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        _ = try await PipelineRunner.runJSONLines(plan, inputs: [RunInput.imageOrVideoFile(path: clip.path)], output: handle, workers: 2,
                                                  video: VideoReading(selection: .every(2)))
        try handle.close()
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.map { $0["frame"] as? Int } == [0, 2])
    }
}
