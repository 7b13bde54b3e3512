import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import Testing

/// `facepipe export` of runs over videos: each frame the run processed is
/// one image of the export, decoded again from the video the run read and
/// turned as the run turned it, with that frame's faces.
@Suite struct VideoExportTests {
    /// The bounding box (x, y, width, height) of the strongly red pixels.
    static func redBox(_ image: RGBImage) -> [Int] {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                guard image.pixels[i] > 150, image.pixels[i + 1] < 100, image.pixels[i + 2] < 100 else { continue }
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? [] : [x0, y0, x1 - x0 + 1, y1 - y0 + 1]
    }

    /// `run` exported as WIDER into `dest`: the summary and the annotation
    /// file's lines (per image: its path, its face count, its boxes).
    static func widerExport(of run: URL, to dest: URL) throws -> (summary: Exporter.Summary, lines: [String]) {
        let summary = try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider))
        let lines = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        return (summary, lines)
    }

    /// The exported picture of the image whose path is `lines[3 · i]` (one
    /// face each), the WIDER box of its face and its red square.
    static func exportedFrame(_ i: Int, _ lines: [String], in dest: URL) throws -> (image: RGBImage, box: [Int], red: [Int]) {
        let png = try ImageDecoder.decode(Array(Data(contentsOf: dest.appendingPathComponent("images/" + lines[3 * i]))))
        let box = lines[3 * i + 2].split(separator: " ").prefix(4).compactMap { Int($0) }
        return (png.image, box, redBox(png.image))
    }

    /// Whether a box and a red square agree to a pixel.
    static func agree(_ box: [Int], _ red: [Int]) -> Bool {
        box.count == 4 && red.count == 4 && zip(box, red).allSatisfy { abs($0 - $1) <= 1 }
    }

    /// A phone clip (stored 160×120, shown turned 90°), run writing one
    /// video out: the WIDER export lists its five frames, each a clean
    /// upright PNG whose red square is where the run's box is.
    @Test func aRotatedClipsFramesAreExportedUprightWithTheirBoxes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("phone.mov")
        try VideoClips.rotatedSquare(clip, rotate: 90)
        let run = folder.appendingPathComponent("run")
        _ = try await VideoInputTests.run([try RunInput.fromArgument(clip.path)], out: run, framesAsImages: false)
        let dest = folder.appendingPathComponent("wider")
        let (summary, lines) = try Self.widerExport(of: run, to: dest)
        #expect(summary.images == 5 && summary.faces == 5)
        try #require(lines.count == 15)
        for frame in 0..<5 {
            #expect(lines[3 * frame] == String(format: "phone.mov/phone.mov#%06d.png", frame))
            #expect(lines[3 * frame + 1] == "1")
            let (image, box, red) = try Self.exportedFrame(frame, lines, in: dest)
            #expect(image.width == 120 && image.height == 160, "frame \(frame) is upright")
            #expect(Self.agree(box, red), "frame \(frame): box \(box), red square \(red)")
        }
    }

    /// A folder holding a still and a clip, run with `--every 5`: the
    /// export has the four frames the run processed (not the others) and
    /// the still; each frame's square is where its box is, 4 px further
    /// each frame, as in the video.
    @Test func aFoldersClipExportsTheFramesTheRunProcessed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try VideoClips.movingSquare(input.appendingPathComponent("clip.mp4"))
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=40x30", "-frames:v", "1"], output: input.appendingPathComponent("still.png"))
        let run = folder.appendingPathComponent("run")
        _ = try await VideoInputTests.run([try RunInput.fromArgument(input.path)], out: run, selection: .every(5), framesAsImages: false)
        let dest = folder.appendingPathComponent("wider")
        let (summary, lines) = try Self.widerExport(of: run, to: dest)
        #expect(summary.images == 5 && summary.faces == 4)
        try #require(lines.count == 15)
        #expect(stride(from: 0, to: 15, by: 3).map { lines[$0] } == ["input/clip.mp4#000000.png", "input/clip.mp4#000005.png",
                                                                   "input/clip.mp4#000010.png", "input/clip.mp4#000015.png",
                                                                   "input/still.png.png"])
        #expect(lines[13] == "0")
        var squares: [Int] = []
        for frame in 0..<4 {
            let (_, box, red) = try Self.exportedFrame(frame, lines, in: dest)
            #expect(lines[3 * frame + 1] == "1" && Self.agree(box, red), "\(lines[3 * frame]): box \(box), red square \(red)")
            squares.append(red.first ?? -1)
        }
        #expect(squares == [0, 20, 40, 60].map { squares[0] + $0 })
    }

    /// `--reference-originals` cannot point at a frame: refused, naming it, before DEST is created.
    @Test func referencingAFrameIsRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 3)
        let run = folder.appendingPathComponent("run")
        _ = try await VideoInputTests.run([try RunInput.fromArgument(clip.path)], out: run, framesAsImages: false)
        let dest = folder.appendingPathComponent("wider")
        #expect {
            try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider, referenceOriginals: true))
        } throws: { "\($0)".contains("clip.mp4#000000") && "\($0)".contains("frame 0 of a video") }
        #expect(!FileManager.default.fileExists(atPath: dest.path))
    }

    /// A tar holding a clip beside a still: its frames are exported from the
    /// member as from a file (the tar checked against run.json first).
    @Test func aTarsClipExportsItsFrames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try VideoClips.movingSquare(input.appendingPathComponent("clip.mkv"), frames: 3)
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=40x30", "-frames:v", "1"], output: input.appendingPathComponent("still.png"))
        let tar = folder.appendingPathComponent("input.tar")
        let process = try Process.run(URL(fileURLWithPath: "/usr/bin/tar"), arguments: ["-cf", tar.path, "-C", input.path, "clip.mkv", "still.png"])
        process.waitUntilExit()
        let run = folder.appendingPathComponent("run")
        _ = try await VideoInputTests.run([try RunInput.fromArgument(tar.path)], out: run, framesAsImages: false)
        let dest = folder.appendingPathComponent("wider")
        let (summary, lines) = try Self.widerExport(of: run, to: dest)
        #expect(summary.images == 4 && summary.faces == 3)
        try #require(lines.count == 12)
        #expect(stride(from: 0, to: 12, by: 3).map { lines[$0] } == ["input.tar/clip.mkv#000000.png", "input.tar/clip.mkv#000001.png",
                                                                   "input.tar/clip.mkv#000002.png", "input.tar/still.png.png"])
        for frame in 0..<3 {
            let (_, box, red) = try Self.exportedFrame(frame, lines, in: dest)
            #expect(Self.agree(box, red), "\(lines[3 * frame]): box \(box), red square \(red)")
        }
    }
}
