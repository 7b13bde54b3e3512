#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import Testing
#endif

/// Issue 50 row 5 and issue 51: a video's frames in flight are bounded in
/// bytes (``RunConfiguration/videoFrameBytes``), not only by a count of
/// entries. Measured on the built binary: the peak resident memory of
/// `facepipe detect` on a clip of large frames, less that of the same run
/// on a clip of small ones, in frames' worth.
@Suite struct VideoFrameMemoryTests {
    /// Runs the binary (paths in `arguments` absolute; stderr into `folder`) and
    /// waits for it with `wait4`, whose resource usage is that child's alone:
    /// its exit status and peak resident memory in bytes.
    static func peakMemory(_ arguments: [String], in folder: URL) throws -> (status: Int32, bytes: Int) {
        let argv = ([FacepipeProcess.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, folder.appendingPathComponent("stderr.txt").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // ru_maxrss is in kilobytes on Linux.
        return ((status >> 8) & 0xFF, usage.ru_maxrss * 1024)
    }

    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func largeFramesInFlightAreBoundedInBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (side, frames, workers) = (6000, 12, 8)
        for (name, size) in [("small.mp4", 64), ("large.mp4", side)] {
            try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=\(size)x\(size):r=10", "-frames:v", "\(frames)",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
                                  output: folder.appendingPathComponent(name))
        }
        let small = try Self.peakMemory(["detect", folder.appendingPathComponent("small.mp4").path, "--workers", "\(workers)"], in: folder)
        let large = try Self.peakMemory(["detect", folder.appendingPathComponent("large.mp4").path, "--workers", "\(workers)"], in: folder)
        let errors = (try? String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
        try #require(small.status == 0 && large.status == 0, "\(errors)")
        let frameBytes = side * side * 3
        let budget = RunConfiguration.defaultVideoFrameBytes(workers: workers)
        // What the budget lets through (4 of these 108 MB frames for 8 workers), and 4 frames' worth for the
        // producer's next frame, the decoder's own pictures (Y'CbCr 4:2:0: half a frame's RGB bytes each)
        // and the detector's working memory on the frames in flight. Measured on 2026-12-06 (2-core build
        // machine): 7.0 frames' worth with the budget, 10.6 with in-flight frames bounded by count only.
        let allowed = budget / frameBytes + 4
        let used = Double(large.bytes - small.bytes) / Double(frameBytes)
        #expect(used <= Double(allowed), "peak \(large.bytes >> 20) MiB, \(small.bytes >> 20) MiB for small frames: \(used) frames of \(frameBytes >> 20) MiB, at most \(allowed)")
    }
}
