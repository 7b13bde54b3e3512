import Foundation
import ImageCore
import Testing
import VideoIO
import _TestSupport

/// Clips made at test time with the ffmpeg command-line tools, in a temporary folder removed at the end.
final class VideoClips {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("videoio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Runs `ffmpeg` with `arguments` (after `-y -hide_banner -loglevel error`), writing `name` in the folder.
    @discardableResult
    func make(_ name: String, _ arguments: [String]) throws -> URL {
        let output = url(name)
        _ = try Self.run("ffmpeg", ["-y", "-hide_banner", "-loglevel", "error", "-nostdin"] + arguments + [output.path])
        return output
    }

    /// A tool's standard output; fails the test (with how to install it) when the tool is missing.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let path = ["/usr/bin", "/usr/local/bin", "/bin"].map({ "\($0)/\(tool)" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("\(tool) is not installed: `make test` installs it (Debian: apt-get install ffmpeg)")
            throw ToolMissing(tool: tool)
        }
        let result = try ChildProcess.run(path, arguments)
        guard result.status == 0 else {
            throw ToolFailed(tool: tool, arguments: arguments, message: result.errors)
        }
        return Data(result.output)
    }

    /// ffprobe's JSON for `arguments` (e.g. `-show_streams`) on `file`.
    static func probe(_ file: URL, _ arguments: [String]) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments + [file.path])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// ffmpeg's own decoding of `file` to RGB frames (its swscale, autorotation as asked): for comparisons with a tolerance.
    static func ffmpegFrames(_ file: URL, width: Int, height: Int, autorotate: Bool = false) throws -> [RGBImage] {
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin"]
        if !autorotate { arguments.append("-noautorotate") }
        arguments += ["-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let data = [UInt8](try run("ffmpeg", arguments))
        let size = width * height * 3
        return stride(from: 0, to: data.count - size + 1, by: size).map {
            RGBImage(width: width, height: height, pixels: Array(data[$0..<($0 + size)]))
        }
    }

    /// Every frame of `input`, or the frames before the error and the error.
    static func decodeAll(_ input: VideoInput, name: String = "clip", maxPixels: Int = 1 << 24)
        -> (info: VideoInfo?, frames: [VideoFrame], error: VideoError?) {
        var frames: [VideoFrame] = []
        do {
            let decoder = try VideoDecoder(input, name: name, maxPixels: maxPixels)
            while let frame = try decoder.next() { frames.append(frame) }
            return (decoder.info, frames, nil)
        } catch {
            return (nil, frames, error)
        }
    }

    /// Runs `body` with a read-only descriptor of `file`.
    static func withDescriptor<T>(_ file: URL, _ body: (Int32) throws -> T) throws -> T {
        let fd = open(file.path, O_RDONLY)
        guard fd >= 0 else { throw ToolMissing(tool: file.path) }
        defer { close(fd) }
        return try body(fd)
    }
}

struct ToolMissing: Error { var tool: String }
struct ToolFailed: Error, CustomStringConvertible {
    var tool: String, arguments: [String], message: String
    var description: String { "\(tool) \(arguments.joined(separator: " ")) failed: \(message)" }
}

extension RGBImage {
    /// The image turned clockwise by `degrees` (a multiple of 90).
    func turnedClockwise(_ degrees: Int) -> RGBImage {
        var image = self
        for _ in 0..<((degrees / 90) % 4 + 4) % 4 {
            let w = image.width, h = image.height
            var out = [UInt8](repeating: 0, count: w * h * 3)
            for y in 0..<h {
                for x in 0..<w {
                    // (x, y) goes to column h-1-y, row x of the h-wide result.
                    let source = (y * w + x) * 3, target = (x * h + (h - 1 - y)) * 3
                    out[target] = image.pixels[source]
                    out[target + 1] = image.pixels[source + 1]
                    out[target + 2] = image.pixels[source + 2]
                }
            }
            image = RGBImage(width: h, height: w, pixels: out)
        }
        return image
    }

    /// The mean absolute difference per byte, and the largest.
    func difference(to other: RGBImage) -> (mean: Double, max: Int) {
        precondition(width == other.width && height == other.height)
        var total = 0, largest = 0
        for i in pixels.indices {
            let d = abs(Int(pixels[i]) - Int(other.pixels[i]))
            total += d
            largest = max(largest, d)
        }
        return (Double(total) / Double(max(pixels.count, 1)), largest)
    }

    /// The pixel at (x, y).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }
}

/// FNV-1a over the frames' bytes: a fingerprint to compare runs (e.g. under qemu with another CPU model).
func fingerprint(_ frames: [VideoFrame]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for frame in frames {
        for byte in frame.image.pixels {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }
    return hash
}
