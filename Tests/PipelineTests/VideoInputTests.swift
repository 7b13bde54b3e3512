import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Synchronization
import Testing

/// Videos as inputs (a file, a folder's file, a tar member): each frame an
/// entry `clip.mp4#000123` with its `frame` and `time`, through the same
/// stages; rotation applied; `--every`/`--fps`; a damaged clip's error row;
/// tracking ids across a video's frames; the same bytes for any worker count.
@Suite struct VideoInputTests {
    /// Real decoding and orientation, a red-square "detector", frames tracked without a Track stage.
    static let pipeline = Pipeline("video-squares") {
        Decode()
        Orient()
        DetectReddish()
        InvertBoxes()
        WriteOutputs(images: ppmOutput, faceJSON: true)
    }.trackingFacesInVideo()

    static func column(_ name: String) -> Int { Manifest.columns.firstIndex(of: name)! }

    static func framesAsImages(_ configuration: RunConfiguration) -> RunConfiguration {
        var configuration = configuration
        configuration.videoFramesAsImages = true
        return configuration
    }

    /// `framesAsImages`: each frame an image file (as these tests read frames back); false: one video out per video.
    static func run(_ inputs: [RunInput], out: URL, workers: Int = 2, selection: FrameSelection = .everyFrame,
                    framesAsImages: Bool = true) async throws -> RunSummary {
        let plan = try pipeline.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        var configuration = RunConfiguration(outputDirectory: out, workers: workers, video: VideoReading(selection: selection))
        configuration.videoFramesAsImages = framesAsImages
        return try await PipelineRunner.run(plan, inputs: inputs, configuration: configuration, toolVersion: "test")
    }

    @Test func everyFrameIsAnEntryWithItsIndexAndTime() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip)
        let out = folder.appendingPathComponent("out")
        let summary = try await Self.run([try RunInput.fromArgument(clip.path)], out: out)
        #expect(summary.failedEntries == 0)
        let rows = try ManifestReadBack.check(out)
        #expect(rows.map { $0["entry"]! } == (0..<20).map { String(format: "clip.mp4#%06d", $0) })
        #expect(rows.map { $0["frame"]! } == (0..<20).map(String.init))
        #expect(rows.map { $0["time"]! } == (0..<20).map { String(format: "%.6f", Double($0) / 10) })
        #expect(rows.allSatisfy { $0["index"] == "0" && $0["archive"] == "clip.mp4" && $0["status"] == "ok" })
        // The square moves 4 px a frame.
        let x = rows.map { Int(Double($0["x"]!)!.rounded()) }
        #expect(x.map { $0 - x[0] } == (0..<20).map { $0 * 4 })
        // Tracked without a Track stage: one face, one id, in every frame.
        #expect(rows.allSatisfy { $0["tracking_id"] == "1" })
        let json = try String(contentsOf: out.appendingPathComponent("faces/clip.mp4/clip.mp4#000013.json"), encoding: .utf8)
        #expect(json.contains("\"index\":0,\"frame\":13,\"time\":1.300000,"))
        #expect(json.contains("\"tracking_id\":1"))
    }

    /// Upright as players show it: the square where FFmpeg's own rotation
    /// (the `ffmpeg` command applies the display matrix) puts it, the sides swapped.
    @Test(arguments: [90, 270]) func theContainersRotationIsApplied(tag: Int) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("phone.mov")
        try VideoClips.rotatedSquare(clip, rotate: tag)
        let shown = folder.appendingPathComponent("shown.ppm")
        try VideoClips.ffmpeg(["-i", clip.path, "-frames:v", "1"], output: shown)
        let expected = try VideoClips.redBox(ppm: shown)
        let out = folder.appendingPathComponent("out")
        _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out)
        let rows = try ManifestReadBack.check(out)
        try #require(rows.count == 5)
        // Stored 160×120, shown 120×160: EXIF 6 is a 90° clockwise turn, 8 a 270° one.
        #expect(rows.allSatisfy { $0["width"] == "120" && $0["height"] == "160" && ["6", "8"].contains($0["exif_orientation"]) })
        #expect(Set(rows.map { $0["exif_orientation"]! }).count == 1)
        #expect([rows[0]["x"], rows[0]["y"], rows[0]["w"], rows[0]["h"]] == expected.map { String(format: "%.2f", Double($0)) },
                "rotate=\(tag)")
    }

    /// Each of the two rotations gives its own orientation.
    @Test func theTwoRotationsDiffer() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var orientations: [String] = []
        for tag in [90, 270] {
            let clip = folder.appendingPathComponent("r\(tag).mov")
            try VideoClips.rotatedSquare(clip, rotate: tag)
            let out = folder.appendingPathComponent("out\(tag)")
            _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out)
            orientations.append(try ManifestReadBack.check(out)[0]["exif_orientation"]!)
        }
        #expect(Set(orientations) == ["6", "8"])
    }

    @Test func everyAndFpsChooseFrames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mkv")
        try VideoClips.movingSquare(clip)
        for (selection, frames) in [(FrameSelection.every(3), [0, 3, 6, 9, 12, 15, 18]),
                                    (.framesPerSecond(2.5), [0, 4, 8, 12, 16])] {
            let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
            _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out, selection: selection)
            let rows = try ManifestReadBack.check(out)
            #expect(rows.map { $0["frame"]! } == frames.map(String.init), "\(selection)")
            #expect(rows.map { $0["entry"]! } == frames.map { String(format: "clip.mkv#%06d", $0) })
            // Tracks follow the frames processed: the square moves 12 px between kept frames at --every 3.
            #expect(rows.allSatisfy { $0["tracking_id"] == "1" }, "\(selection)")
        }
    }

    @Test func videosInAFolderAndInATarBesideStills() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try VideoClips.movingSquare(input.appendingPathComponent("sub/b.mp4"), frames: 3)
        try VideoClips.movingSquare(input.appendingPathComponent("c.webm"), frames: 2, extra: ["-c:v", "libvpx-vp9"])
        // A still named like a video and a video named like a still: recognised by their bytes.
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=8x8", "-frames:v", "1"], output: input.appendingPathComponent("a.png"))
        try FileManager.default.moveItem(at: input.appendingPathComponent("a.png"), to: input.appendingPathComponent("a.mp4"))
        // Lower down than the other clips' squares: a track carried over from the video before would not match it.
        try VideoClips.movingSquare(input.appendingPathComponent("d.jpg"), frames: 2, extra: ["-f", "mp4"], y: 85)

        let fromFolder = folder.appendingPathComponent("out-folder")
        _ = try await Self.run([try RunInput.fromArgument(input.path)], out: fromFolder)
        let rows = try ManifestReadBack.check(fromFolder)
        #expect(rows.map { $0["entry"]! } == ["a.mp4", "c.webm#000000", "c.webm#000001", "d.jpg#000000", "d.jpg#000001",
                                              "sub/b.mp4#000000", "sub/b.mp4#000001", "sub/b.mp4#000002"])
        #expect(rows.map { $0["index"]! } == ["0", "1", "1", "2", "2", "3", "3", "3"])
        #expect(rows.map { $0["frame"]! } == ["", "0", "1", "0", "1", "0", "1", "2"])
        #expect(rows[0]["time"] == "")
        // Ids restart with each video; the still is not tracked.
        #expect(rows.map { $0["tracking_id"]! } == ["", "1", "1", "1", "1", "1", "1", "1"])

        // The same files as members of a tar.
        let tar = folder.appendingPathComponent("input.tar")
        let tarProcess = try Process.run(URL(fileURLWithPath: "/usr/bin/tar"), arguments: ["-cf", tar.path, "-C", input.path, "a.mp4", "c.webm", "d.jpg", "sub/b.mp4"])
        tarProcess.waitUntilExit()
        let fromTar = folder.appendingPathComponent("out-tar")
        _ = try await Self.run([try RunInput.fromArgument(tar.path)], out: fromTar)
        let tarRows = try ManifestReadBack.check(fromTar)
        #expect(tarRows.map { $0["entry"]! } == rows.map { $0["entry"]! })
        #expect(tarRows.map { $0["x"]! } == rows.map { $0["x"]! })
        #expect(tarRows.map { $0["tracking_id"]! } == rows.map { $0["tracking_id"]! })
    }

    @Test func outputsAreTheSameForAnyWorkerCount() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 12)
        var reference: [String: Data]?
        for workers in [1, 2, 4] {
            let out = folder.appendingPathComponent("out-\(workers)")
            _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out, workers: workers)
            let files = try outputFiles(out)
            #expect(files.keys.filter { $0.hasPrefix("images/") }.count == 12)
            if let reference { #expect(files == reference, "--workers \(workers)") } else { reference = files }
        }
    }

    /// Frames are keyed by their pixels: a resumed run reuses the frames
    /// finished before the stop, replays their tracks, and ends with the
    /// bytes of an uninterrupted run.
    @Test func anInterruptedRunResumesFrameByFrame() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 10)
        let plan = try Self.pipeline.compile(modelsDirectory: folder)
        let reference = folder.appendingPathComponent("reference"), out = folder.appendingPathComponent("out")
        _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: reference)
        let written = Atomic<Int>(0)
        let stopped = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path)],
                                                   configuration: Self.framesAsImages(RunConfiguration(outputDirectory: out, workers: 1)), toolVersion: "test",
                                                   hooks: RunHooks(shouldStop: { written.load(ordering: .relaxed) >= 4 },
                                                                   progress: { written.store($0.done, ordering: .relaxed) }))
        #expect(stopped.interrupted)
        let resumed = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path)],
                                                   configuration: Self.framesAsImages(RunConfiguration(outputDirectory: out, workers: 2, resume: true)),
                                                   toolVersion: "test")
        #expect(resumed.resumedEntries >= 4)
        #expect(try outputFiles(out) == outputFiles(reference))
    }

    /// `--shard` assigns whole inputs: every frame of a video is in one task's
    /// shard, and the merged folder is what one run writes.
    @Test func aVideosFramesStayInOneClusterTask() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clips: [String] = []
        for (k, frames) in [4, 6, 3].enumerated() {
            let clip = folder.appendingPathComponent("clip\(k).mp4")
            try VideoClips.movingSquare(clip, frames: frames)
            clips.append(clip.path)
        }
        let plan = try Self.pipeline.compile(modelsDirectory: folder)
        let single = folder.appendingPathComponent("single")
        _ = try await PipelineRunner.run(plan, inputs: try clips.map { try RunInput.fromArgument($0) },
                                         configuration: RunConfiguration(outputDirectory: single, workers: 2), toolVersion: "test")
        let out = folder.appendingPathComponent("sharded")
        var videosByShard: [Set<String>] = []
        for index in 0..<2 {
            let shard = try Shard(index: index, count: 2)
            _ = try await ShardedRun.run(plan, arguments: clips, shard: shard, out: out,
                                         configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
            let rows = try manifestRows(ShardedRun.folder(shard, in: out))
            videosByShard.append(Set(rows.map { $0[Self.column("archive")] }))
            for video in videosByShard[index] {
                let frames = [4, 6, 3][Int(String(video.dropFirst(4).prefix(1)))!]
                #expect(rows.filter { $0[Self.column("archive")] == video }.count == frames, "\(video) in shard \(index)")
            }
        }
        #expect(videosByShard[0].isDisjoint(with: videosByShard[1]))
        #expect(videosByShard[0].union(videosByShard[1]).count == 3)
        _ = try ShardMerge.merge(into: out)
        let merged = try outputFiles(out).filter { !$0.key.hasPrefix("shards/") }
        #expect(merged == (try outputFiles(single)))
    }

    /// The drawing of a video frame labels each face with its tracking id
    /// (`#0 1.00 id 1`: drawn by the writer once the frame is tracked); a
    /// still's label has none. Counted as the label background's pixels.
    @Test func theDrawingShowsTheTrackingID() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 3)
        let still = folder.appendingPathComponent("still.png")
        try VideoClips.ffmpeg(["-i", clip.path, "-frames:v", "1"], output: still)
        let labelled = Pipeline("labelled-squares") {
            Decode()
            Orient()
            DetectReddish()
            Annotate([.boxes, .labels], thickness: 1)
            WriteOutputs(images: ppmOutput, faceJSON: false)
        }.trackingFacesInVideo()
        let plan = try labelled.compile(modelsDirectory: folder)
        let out = folder.appendingPathComponent("out")
        _ = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(clip.path), try RunInput.fromArgument(still.path)],
                                         configuration: Self.framesAsImages(RunConfiguration(outputDirectory: out, workers: 2)), toolVersion: "test")
        let rows = try manifestRows(out)
        #expect(rows.map { $0[Self.column("tracking_id")] } == ["1", "1", "1", ""])
        func labelPixels(_ path: String) throws -> Int {
            let ppm = try [UInt8](Data(contentsOf: out.appendingPathComponent(path)))
            // "P6\n160 120\n255\n": three header lines.
            var newlines = 0, start = 0
            while newlines < 3 { if ppm[start] == 0x0A { newlines += 1 }; start += 1 }
            return stride(from: start, to: ppm.count, by: 3).filter { ppm[$0] == 40 && ppm[$0 + 1] == 220 && ppm[$0 + 2] == 60 }.count
        }
        let frame = try labelPixels("images/clip.mp4/clip.mp4#000000.ppm")
        let plain = try labelPixels("images/still.png.ppm")
        #expect(frame > plain, "label pixels: frame \(frame), still \(plain)")
    }

    /// A clip cut short (a partial download): the frames before the cut are
    /// processed, then one error row for the clip with VideoIO's reason, and
    /// the next file's frames follow.
    @Test(arguments: ["mp4", "webm"]) func aDamagedClipGetsAnErrorRowAndTheRunGoesOn(_ container: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let whole = folder.appendingPathComponent("whole.\(container)")
        try VideoClips.movingSquare(whole, frames: 20, extra: container == "mp4" ? ["-movflags", "+faststart"] : ["-c:v", "libvpx-vp9"],
                                    background: "testsrc2=size=160x120:rate=10")
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count * 6 / 10).write(to: input.appendingPathComponent("a.\(container)"))
        try VideoClips.movingSquare(input.appendingPathComponent("b.mp4"), frames: 2)
        let out = folder.appendingPathComponent("out")
        let summary = try await Self.run([try RunInput.fromArgument(input.path)], out: out)
        #expect(summary.failedEntries == 1)
        let rows = try ManifestReadBack.check(out)
        let cut = rows.filter { $0["entry"]!.hasPrefix("a.\(container)#") }
        #expect(cut.count > 0 && cut.count < 20)
        #expect(cut.map { $0["frame"]! } == (0..<cut.count).map(String.init))
        let error = try #require(rows.first { $0["status"] == "error" })
        #expect(error["entry"] == "a.\(container)" && error["index"] == "0" && error["frame"] == "" && error["time"] == "")
        // VideoIO's sentence: truncated (the index points past the end) or damaged (a packet cut through), at the first frame not given.
        let reason = try #require(error["error"])
        #expect(reason == "read: a.\(container) is truncated: it ends at frame \(cut.count), before the data its index points at."
                || reason.hasPrefix("read: a.\(container) is damaged at frame \(cut.count) ("), "\(reason)")
        #expect(rows.map { $0["entry"]! }.suffix(2) == ["b.mp4#000000", "b.mp4#000001"])
        #expect(rows.firstIndex { $0["status"] == "error" } == cut.count)
    }

    /// A video file's progress is the container's bytes the decoder has read, of the file's size.
    @Test func progressCountsTheVideosBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        // Large enough (about 1 MB) that the decoder reads it in many pieces.
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x480:rate=10", "-frames:v", "20", "-c:v", "libx264",
                               "-pix_fmt", "yuv420p", "-g", "2", "-crf", "10"], output: clip)
        let size = Int64(try Data(contentsOf: clip).count)
        var source = try RunInput.fromArgument(clip.path).open()
        var positions: [ReadPosition] = []
        while let item = try source.next() {
            guard case .frame = item else { Issue.record("not a frame: \(item)"); break }
            positions.append(source.position)
        }
        #expect(positions.count == 20)
        #expect(positions.allSatisfy { $0.unit == .bytes && $0.total == size })
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(positions[0].done < positions[19].done && positions[19].done >= size * 9 / 10, "\(positions.map(\.done)) of \(size)")
        // The digest is the file's SHA-256, as for an image file.
        #expect(try source.digest()?.bytes == size)
    }

    /// A video's frames written back as one video where a still's image would
    /// go: every frame, in order, with the source's audio, the same bytes for
    /// any worker count; the manifest's `output` names it for every frame.
    @Test func aVideosFramesAreWrittenIntoOneVideo() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mov")
        try VideoClips.movingSquare(clip, frames: 12, extra: [])
        let withAudio = folder.appendingPathComponent("talk.mp4")
        try VideoClips.ffmpeg(["-i", clip.path, "-f", "lavfi", "-i", "sine=frequency=440:duration=1.2", "-map", "0:v", "-map", "1:a",
                               "-c:v", "copy", "-c:a", "aac", "-shortest"], output: withAudio)
        var reference: [String: Data]?
        for workers in [1, 2] {
            let out = folder.appendingPathComponent("out-\(workers)")
            _ = try await Self.run([try RunInput.fromArgument(withAudio.path)], out: out, workers: workers, framesAsImages: false)
            let files = try outputFiles(out)
            #expect(files.keys.filter { $0.hasPrefix("images/") } == ["images/talk.mp4/talk.mp4"])
            let rows = try ManifestReadBack.check(out)
            #expect(rows.count == 12 && rows.allSatisfy { $0["output"] == "images/talk.mp4/talk.mp4" })
            if let reference { #expect(files == reference, "--workers \(workers)") } else { reference = files }
            let video = out.appendingPathComponent("images/talk.mp4/talk.mp4")
            let streams = try VideoProbe.run(video, entries: "stream=codec_name,codec_type,width,height,nb_read_frames", selectStreams: "v")
            #expect(streams == ["codec_name=h264", "codec_type=video", "width=160", "height=120", "nb_read_frames=12"], "\(streams)")
            #expect(try VideoProbe.run(video, entries: "stream=codec_type", selectStreams: "a") == ["codec_type=audio"])
        }
        // The audio packets are the source's, byte for byte.
        func audioPackets(_ file: URL) throws -> [String] {
            try VideoProbe.run(file, entries: "packet=size,pts", selectStreams: "a")
        }
        let written = folder.appendingPathComponent("out-1/images/talk.mp4/talk.mp4")
        #expect(try audioPackets(written) == audioPackets(withAudio))
        #expect(try !audioPackets(written).isEmpty)
    }

    /// A `.webm` (Matroska) video is written as Matroska with H.264, named `.mkv`
    /// after its own name; the drawing (the inverted box) is in its frames.
    @Test func aWebMBecomesAnMKV() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("c.webm")
        try VideoClips.movingSquare(clip, frames: 4, extra: ["-c:v", "libvpx-vp9"])
        let out = folder.appendingPathComponent("out")
        _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out, framesAsImages: false)
        let video = out.appendingPathComponent("images/c.webm/c.webm.mkv")
        #expect(try VideoProbe.run(video, entries: "stream=codec_name,nb_read_frames") == ["codec_name=h264", "nb_read_frames=4"])
        #expect(try VideoProbe.run(video, entries: "format=format_name") == ["format_name=matroska,webm"])
    }

    /// report.html's gallery shows pictures: frames written as images are in
    /// it, a video output (which an <img> cannot show) is not.
    @Test func theReportGalleryHoldsFrameImagesNotVideos() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try VideoClips.movingSquare(clip, frames: 3)
        for framesAsImages in [true, false] {
            let out = folder.appendingPathComponent("out-\(framesAsImages)")
            _ = try await Self.run([try RunInput.fromArgument(clip.path)], out: out, framesAsImages: framesAsImages)
            let gallery = try RunReport.read(directory: out).report.gallery.map(\.output)
            #expect(gallery == (framesAsImages ? (0..<3).map { "images/clip.mp4/clip.mp4#00000\($0).ppm" } : []))
        }
    }
}
