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
        // The track header's matrix turned into a horizontal flip: a = -1.0.
        try MP4TrackMatrix.patch(clip, [-65536, 0, 0, 65536])

        let run = try FacepipeProcess.run(["run", "--pipeline", "faces", clip.path, "--out", "out", "--workers", "1"], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        let rows = try ManifestReadBack.check(folder.appendingPathComponent("out"))
        #expect(rows.count == 1, "\(rows)")
        #expect(rows.first?["status"] == "error")
        #expect(rows.first?["error"]?.contains("selfie.mp4 is mirrored by its display matrix") == true, "\(rows)")
    }
}
