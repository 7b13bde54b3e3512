import Foundation
import Testing
import _TestSupport

/// Issue 50 row 6, through the built binary: a Matroska clip with a stretch
/// of its bytes written twice. FFmpeg's demuxer logs "Element … exceeds
/// containing master element", resyncs and goes on, so frames are lost
/// though no call fails; the run used to exit 0 with no error row and a
/// short video. Frames lost to damage are an error row for the clip (exit 1),
/// as a truncated clip's are, and the video output holds the frames before it.
@Suite struct DamagedMatroskaRunTests {
    /// ffprobe's count of the frames it decodes, and what it logged.
    static func probe(_ file: URL) throws -> (frames: Int?, log: String) {
        let result = try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                               "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.path])
        let text = String(decoding: result.output, as: UTF8.self)
        return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), result.errors)
    }

    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func framesLostToAChunkWrittenTwiceAreAnErrorRow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mkv")
        try VideoClips.movingSquare(whole, frames: 10, background: "testsrc2=size=160x120:rate=10")
        let bytes = [UInt8](try Data(contentsOf: whole))
        // The first repeated stretch that FFmpeg's own ffprobe reads short, logging only the demuxer's resync.
        let clip = folder.appendingPathComponent("clip.mkv")
        var found: Int?
        search: for start in stride(from: 1000, to: bytes.count - 200, by: 397) {
            for length in [64, 500, 2000] {
                let end = min(start + length, bytes.count)
                try Data(bytes[..<end] + bytes[start..<end] + bytes[end...]).write(to: clip)
                let (frames, log) = try Self.probe(clip)
                if let frames, frames < 10, log.contains("exceeds containing master element"), !log.contains("[h264") {
                    found = frames
                    break search
                }
            }
        }
        let probed = try #require(found, "no repeated stretch makes ffprobe read the clip short")

        let (status, stderr) = try FacepipeProcess.run(["run", "anonymize", "clip.mkv", "--out", "out", "--quiet"], in: folder)
        #expect(status == 1, "\(stderr)")
        let out = folder.appendingPathComponent("out")
        let rows = try ManifestReadBack.check(out)
        let frames = rows.filter { $0["status"] != "error" }
        #expect(frames.count <= probed && frames.map { $0["frame"]! } == (0..<frames.count).map(String.init))
        let error = try #require(rows.first { $0["status"] == "error" }, "no error row: \(rows.count) rows")
        #expect(error["entry"] == "clip.mkv" && error["frame"] == "")
        #expect(error["error"]!.hasPrefix("read: clip.mkv is damaged at frame \(frames.count) ("), "\(error["error"]!)")
        // The video output holds the frames before the damage, each once.
        if let output = frames.first?["output"], !output.isEmpty {
            let written = try VideoProbe.run(out.appendingPathComponent(output), entries: "stream=nb_read_frames", selectStreams: "v:0")
            #expect(written == ["nb_read_frames=\(frames.count)"])
        }
    }
}
