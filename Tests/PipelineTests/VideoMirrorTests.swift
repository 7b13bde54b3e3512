import Foundation
import Testing
import _TestSupport

/// A clip whose display matrix mirrors the picture (a front camera's): the
/// built binary gives it one error row naming the mirror, instead of
/// processing its frames as turned by 180° (`exif_orientation` 3), which is
/// what `av_display_rotation_get` reads from a horizontal flip.
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary"),
       .enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
struct VideoMirrorTests {
    @Test func aMirroredClipIsAnErrorRowNotATurn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("selfie.mp4")
        try VideoClips.movingSquare(clip, frames: 3)
        // The track header's matrix (the identity ffmpeg writes) turned into a horizontal flip: a = -1.0.
        var bytes = [UInt8](try Data(contentsOf: clip))
        let zeros = [UInt8](repeating: 0, count: 12)
        var identity: [UInt8] = [0, 1, 0, 0]
        identity += zeros
        identity += [0, 1, 0, 0]
        identity += zeros
        identity += [0x40, 0, 0, 0]
        let tkhd = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("tkhd".utf8) })
        let at = try #require((tkhd..<(bytes.count - identity.count)).first { Array(bytes[$0..<($0 + identity.count)]) == identity })
        bytes.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0x00, 0x00])
        try Data(bytes).write(to: clip)

        let run = try FacepipeProcess.run(["run", "--pipeline", "faces", clip.path, "--out", "out", "--workers", "1"], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        let rows = try ManifestReadBack.check(folder.appendingPathComponent("out"))
        #expect(rows.count == 1, "\(rows)")
        #expect(rows.first?["status"] == "error")
        #expect(rows.first?["error"]?.contains("selfie.mp4 is mirrored by its display matrix") == true, "\(rows)")
    }
}
