import Foundation
import ImageCore
import Pipeline
import _TestSupport

/// Video clips made at test time with the `ffmpeg` command (installed by
/// setup with FFmpeg's libraries), so no video file is committed.
enum VideoClips {
    /// Runs `ffmpeg -v error -y ARGUMENTS… output`; fails with its stderr.
    static func ffmpeg(_ arguments: [String], output: URL) throws {
        let result = try ChildProcess.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments + [output.path])
        guard result.status == 0 else { throw Failure(message: "ffmpeg \(arguments.joined(separator: " ")): \(result.errors)") }
    }

    struct Failure: Error, CustomStringConvertible { let message: String; var description: String { message } }

    /// A red 30×30 square moving right 4 px per frame over a grey 160×120
    /// picture, `frames` frames at 10 per second (H.264, every frame a key
    /// frame every 5, no B-frames). `extra`: more output options (a container, metadata).
    /// `background`: another lavfi source of 160×120 at 10 per second (`testsrc2…`: bigger packets).
    static func movingSquare(_ output: URL, frames: Int = 20, extra: [String] = [],
                             background: String = "color=c=gray:s=160x120:r=10", y: Int = 40) throws {
        try ffmpeg(["-f", "lavfi", "-i", background,
                    "-f", "lavfi", "-i", "color=c=red:s=30x30:r=10",
                    "-filter_complex", "[0][1]overlay=x='n*4':y=\(y)",
                    "-frames:v", "\(frames)", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5", "-bf", "0"] + extra,
                   output: output)
    }

    /// The same clip, 5 frames, with a display matrix (`-metadata:s:v:0 rotate=TAG`, as a phone writes one).
    static func rotatedSquare(_ output: URL, rotate: Int) throws {
        let plain = output.deletingLastPathComponent().appendingPathComponent("unrotated-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: plain) }
        try movingSquare(plain, frames: 5)
        try ffmpeg(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)"], output: output)
    }

    /// The bounding box (x, y, width, height) of the strongly red pixels of a binary PPM (`ffmpeg … x.ppm`).
    static func redBox(ppm url: URL) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var fields: [Int] = [], i = 2, number = 0, inNumber = false
        while fields.count < 3 {
            let b = bytes[i]; i += 1
            if b >= 0x30 && b <= 0x39 { number = number * 10 + Int(b - 0x30); inNumber = true }
            else if inNumber { fields.append(number); number = 0; inNumber = false }
        }
        let (width, height) = (fields[0], fields[1])
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width {
                let p = i + (y * width + x) * 3
                if bytes[p] > 180, bytes[p + 1] < 80, bytes[p + 2] < 80 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        return [minX, minY, maxX - minX + 1, maxY - minY + 1]
    }

    /// A face photo (`datasets/sources/Tom_Hanks_54745.png`) 200 px wide, panned
    /// right 12 px per frame over a grey 480×320 canvas, `frames` frames at 5 per second.
    static func pannedFace(_ output: URL, photo: URL, frames: Int = 8) throws {
        try ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=480x320:r=5", "-i", photo.path,
                    "-filter_complex", "[1]scale=200:-2[face];[0][face]overlay=x='20+n*12':y=20",
                    "-frames:v", "\(frames)", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "0"],
                   output: output)
    }
}

/// "Detects" strongly red pixels (as H.264 leaves a pure red square: red
/// above 180, green and blue below 80): one face, their bounding box. The
/// video tests' stand-in for a face detector.
struct DetectReddish: Stage {
    var definition: StageDefinition { StageDefinition("detect-reddish") }
    var caching: StageCaching { .records }

    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
        var out = frame.advanced(to: Phase.Detected.self)
        out.record.detectionRan = true
        let image = frame.image
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                if image.pixels[i] > 180, image.pixels[i + 1] < 80, image.pixels[i + 2] < 80 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        if maxX >= 0 {
            out.record.faces = [FaceRecord(face: 0, confidence: 1,
                                           box: Rect(x: Float(minX), y: Float(minY), width: Float(maxX - minX + 1), height: Float(maxY - minY + 1)),
                                           keypoints: [])]
        }
        return out
    }
}

/// `ffprobe` on a written video: its streams as `key=value` lines.
enum VideoProbe {
    /// `ffprobe -v error -count_frames -show_entries ENTRIES -of default=noprint_wrappers=1 FILE`.
    static func run(_ file: URL, entries: String, selectStreams: String? = nil) throws -> [String] {
        let arguments = ["-v", "error", "-count_frames"] + (selectStreams.map { ["-select_streams", $0] } ?? [])
            + ["-show_entries", entries, "-of", "default=noprint_wrappers=1", file.path]
        return String(decoding: try output(of: "/usr/bin/ffprobe", arguments), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `ffprobe -v error -of json ARGUMENTS FILE`, parsed.
    static func json(_ file: URL, _ arguments: [String]) throws -> [String: Any] {
        let data = try output(of: "/usr/bin/ffprobe", ["-v", "error", "-of", "json"] + arguments + [file.path])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The standard output of `executable ARGUMENTS…` (its standard error discarded).
    static func output(of executable: String, _ arguments: [String]) throws -> Data {
        Data(try ChildProcess.run(executable, arguments).output)
    }
}
