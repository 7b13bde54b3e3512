import Foundation
import ImageCore
import Pipeline
import PipelineRunning
import RunFolders
import Testing

/// ``VideoFrameReader`` over synthetic frames (no container): names, the
/// selection, and what a damaged clip gives; then the runner on such
/// items: the frames' rows, the clip's error row, the next entry processed.
@Suite struct VideoFrameReaderTests {
    struct Damage: Error, CustomStringConvertible { var description: String { "clip.mp4 is damaged at frame 3 (test)" } }

    /// `count` frames at 10 per second, a red 4×4 square moving 2 px a
    /// frame on a grey 32×16 picture; throws `Damage` after `damagedAfter` frames.
    final class SyntheticFrames: FrameDecoding {
        let count: Int, damagedAfter: Int?, rotation: Int
        var next = 0
        init(count: Int, damagedAfter: Int? = nil, rotation: Int = 0) {
            self.count = count; self.damagedAfter = damagedAfter; self.rotation = rotation
        }
        var bytesRead: Int64 { Int64(next * 100) }
        var videoSource: VideoSource? { nil }
        func nextFrame() throws -> DecodedFrame? {
            if let damagedAfter, next == damagedAfter { throw Damage() }
            guard next < count else { return nil }
            var image = RGBImage(width: 32, height: 16, fill: (90, 90, 90))
            for y in 6..<10 { for x in (2 * next)..<(2 * next + 4) { image.pixels.replaceSubrange((y * 32 + x) * 3..<(y * 32 + x) * 3 + 3, with: [255, 0, 0]) } }
            defer { next += 1 }
            return DecodedFrame(index: next, seconds: Double(next) / 10, image: image)
        }
    }

    static func items(_ reader: VideoFrameReader) -> [SourceItem] {
        var items: [SourceItem] = []
        while let item = reader.next() { items.append(item) }
        return items
    }

    static func describe(_ item: SourceItem) -> String {
        switch item {
        case .frame(let frame): "\(frame.name) \(frame.index) \(frame.frame) \(frame.time)"
        case let .unreadable(index, name, _, reason): "error \(name) \(index) \(reason)"
        default: "other"
        }
    }

    @Test func framesAreNamedByTheVideoAndTheirIndex() {
        let reader = VideoFrameReader(decoder: SyntheticFrames(count: 3), index: 4, rawName: Array("dir/clip.mp4".utf8), selection: .everyFrame)
        #expect(Self.items(reader).map(Self.describe) == ["dir/clip.mp4#000000 4 0 0.0", "dir/clip.mp4#000001 4 1 0.1", "dir/clip.mp4#000002 4 2 0.2"])
    }

    @Test func moreThanAMillionFramesTakeMoreDigits() {
        #expect(EntryName(member: Array("a.mkv".utf8), frame: 1_234_567).text == "a.mkv#1234567")
        #expect(EntryName(member: Array("a.mkv".utf8), frame: 123).text == "a.mkv#000123")
    }

    @Test func aDamagedClipGivesItsFramesThenOneErrorItem() {
        let reader = VideoFrameReader(decoder: SyntheticFrames(count: 6, damagedAfter: 3), index: 0, rawName: Array("clip.mp4".utf8),
                                      selection: .every(2))
        #expect(Self.items(reader).map(Self.describe) == ["clip.mp4#000000 0 0 0.0", "clip.mp4#000002 0 2 0.2",
                                                          "error clip.mp4 0 clip.mp4 is damaged at frame 3 (test)"])
    }

    /// Through the runner: the frames' rows (tracked), the clip's error row, then the next entry.
    @Test func theRunGoesOnAfterADamagedClip() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = Self.items(VideoFrameReader(decoder: SyntheticFrames(count: 6, damagedAfter: 3), index: 0,
                                                  rawName: Array("a.mp4".utf8), selection: .everyFrame))
        let whole = Self.items(VideoFrameReader(decoder: SyntheticFrames(count: 2), index: 1, rawName: Array("b.mp4".utf8), selection: .everyFrame))
        let input = RunInput(name: "clips", path: nil) { InMemoryEntrySource(items: damaged + whole) }
        let plan = try VideoInputTests.pipeline.compile(modelsDirectory: folder)
        let out = folder.appendingPathComponent("out")
        let summary = try await PipelineRunner.run(plan, inputs: [input], configuration: RunConfiguration(outputDirectory: out, workers: 2),
                                                   toolVersion: "test")
        #expect(summary.failedEntries == 1)
        let rows = try ManifestReadBack.check(out)
        #expect(rows.map { "\($0["entry"]!) \($0["status"]!) \($0["frame"]!) \($0["tracking_id"]!)" } == [
            "a.mp4#000000 ok 0 1", "a.mp4#000001 ok 1 1", "a.mp4#000002 ok 2 1",
            "a.mp4 error  ", "b.mp4#000000 ok 0 1", "b.mp4#000001 ok 1 1",
        ])
        #expect(rows[3]["error"] == "read: clip.mp4 is damaged at frame 3 (test)")
        #expect(rows.map { $0["x"]! } == ["0.00", "2.00", "4.00", "", "0.00", "2.00"])
    }

    /// A rotated clip's frames are turned upright by Orient (90° clockwise: EXIF 6).
    @Test func rotationBecomesTheExifOrientation() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = Self.items(VideoFrameReader(decoder: SyntheticFrames(count: 1, rotation: 90), index: 0,
                                                 rawName: Array("phone.mov".utf8), selection: .everyFrame))
        let plan = try VideoInputTests.pipeline.compile(modelsDirectory: folder)
        let out = folder.appendingPathComponent("out")
        _ = try await PipelineRunner.run(plan, inputs: [RunInput(name: "p", path: nil) { InMemoryEntrySource(items: frames) }],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 1), toolVersion: "test")
        let row = try #require(ManifestReadBack.check(out).first)
        // Stored 32×16 with the square at x 0…3, y 6…9; upright 16×32 with it at x 16−10 = 6…9, y 0…3.
        #expect([row["width"], row["height"], row["exif_orientation"], row["x"], row["y"], row["w"], row["h"]]
                == ["16", "32", "6", "6.00", "0.00", "4.00", "4.00"])
    }
}
