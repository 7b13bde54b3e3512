import Foundation
import ImageCore
import Testing
import VideoIO

@Suite struct VideoEncoderTests {
    struct Source: Sendable, CustomStringConvertible {
        var file: String
        var codecs: [String]
        var output: String   // ffprobe's format name of what the encoder writes
        var description: String { file }
    }

    static let sources: [Source] = [
        Source(file: "phone.mp4", codecs: ["-c:v", "libx264", "-c:a", "aac"], output: "mov,mp4,m4a,3gp,3g2,mj2"),
        Source(file: "camera.mov", codecs: ["-c:v", "libx264", "-c:a", "pcm_s16le"], output: "mov,mp4,m4a,3gp,3g2,mj2"),
        Source(file: "clip.mkv", codecs: ["-c:v", "libx265", "-x265-params", "log-level=none", "-c:a", "libopus"], output: "matroska,webm"),
        Source(file: "clip.webm", codecs: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"], output: "matroska,webm"),
    ]

    /// 24 frames of 160×96 at 12 fps, a 440 Hz tone, and metadata that identifies a person, a place and a device.
    static func makeSource(_ clips: VideoClips, _ source: Source) throws -> URL {
        try clips.make(source.file, [
            "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=12:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
            "-pix_fmt", "yuv420p",
            "-metadata", "title=Alice at home", "-metadata", "location=+48.8582+002.2945/",
            "-metadata", "creation_time=2021-06-01T10:00:00Z", "-metadata", "make=PhoneMaker",
            "-metadata", "model=PhoneModel 12",
            "-metadata:s:v", "handler_name=PhoneCam Video", "-metadata:s:a", "handler_name=PhoneCam Audio",
        ] + source.codecs)
    }

    /// Decodes `file` and re-encodes every frame (through one descriptor, as the pipeline does).
    static func reencode(_ file: URL, to output: URL, encoding: VideoEncoding = .standard,
                         transform: (RGBImage) -> RGBImage = { $0 }) throws -> (info: VideoInfo, frames: [VideoFrame]) {
        try VideoClips.withDescriptor(file) { fd in
            let decoder = try VideoDecoder(.fileDescriptor(fd), name: file.lastPathComponent, maxPixels: 1 << 24)
            let out = open(output.path, O_CREAT | O_EXCL | O_WRONLY, 0o644)
            #expect(out >= 0)
            defer { close(out) }
            var frames: [VideoFrame] = []
            var encoder: VideoEncoder?
            while let frame = try decoder.next() {
                let image = transform(frame.image)
                if encoder == nil {
                    encoder = try VideoEncoder(output: out, source: .fileDescriptor(fd), sourceInfo: decoder.info,
                                               width: image.width, height: image.height, encoding: encoding)
                }
                try encoder!.append(image, pts: frame.pts)
                frames.append(frame)
            }
            try #require(encoder).finish()
            // Both descriptors were read and written at VideoIO's own offsets.
            #expect(lseek(fd, 0, SEEK_CUR) == 0 && lseek(out, 0, SEEK_CUR) == 0, "a descriptor's offset moved")
            return (decoder.info, frames)
        }
    }

    /// Each audio packet's time and SHA-256, as ffprobe reads them.
    static func audioPacketHashes(_ file: URL) throws -> [String] {
        let probed = try VideoClips.probe(file, ["-select_streams", "a", "-show_packets", "-show_data_hash", "sha256",
                                                 "-show_entries", "packet=pts_time,data_hash"])
        return (probed["packets"] as? [[String: Any]] ?? []).compactMap { packet in
            (packet["data_hash"] as? String).map { "\(packet["pts_time"] as? String ?? "?") \($0)" }
        }
    }

    @Test(arguments: sources)
    func keepsFramesTimingAndAudioAndDropsMetadata(_ source: Source) throws {
        let clips = try VideoClips()
        let file = try Self.makeSource(clips, source)
        let output = clips.url("redacted-" + source.file)
        let (info, frames) = try Self.reencode(file, to: output)
        #expect(frames.count == 24)

        // Playable, same frame count and duration (within a frame), H.264 yuv420p, the source's container family.
        let probed = try VideoClips.probe(output, ["-count_frames", "-show_format", "-show_streams"])
        let streams = probed["streams"] as? [[String: Any]] ?? []
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["pix_fmt"] as? String == "yuv420p")
        #expect(video["width"] as? Int == 160 && video["height"] as? Int == 96)
        #expect(video["nb_read_frames"] as? String == "24")
        #expect(video["avg_frame_rate"] as? String == "12/1")
        let format = probed["format"] as? [String: Any] ?? [:]
        #expect(format["format_name"] as? String == source.output)
        let sourceFormat = try VideoClips.probe(file, ["-show_format"])["format"] as? [String: Any] ?? [:]
        let duration = Double(format["duration"] as? String ?? "") ?? 0
        let sourceDuration = Double(sourceFormat["duration"] as? String ?? "") ?? -1
        #expect(abs(duration - sourceDuration) <= 1.0 / 12, "duration \(duration), source \(sourceDuration)")
        _ = info

        // Audio copied packet for packet, each at its own time (Matroska with Opus: the codec delay kept).
        let sourceAudio = try Self.audioPacketHashes(file)
        #expect(sourceAudio.count > 10)
        #expect(try Self.audioPacketHashes(output) == sourceAudio)

        // Nothing that names a person, place, device or time.
        let everything = String(decoding: try VideoClips.run("ffprobe", ["-v", "error", "-of", "json", "-show_format",
                                                                         "-show_streams", output.path]), as: UTF8.self)
        for leak in ["Alice", "48.8582", "2021-06-01", "PhoneMaker", "PhoneModel", "PhoneCam", "\"location", "\"creation_time\""] {
            #expect(!everything.contains(leak), "\(leak) is still in the output")
        }
        #expect(try Self.sourceHasTheMetadata(file))

        // The frames come back close to what was appended.
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: output))))
        #expect(decoded.error == nil)
        #expect(decoded.frames.map(\.pts) == frames.map(\.pts))
        for (back, original) in zip(decoded.frames, frames) {
            let difference = back.image.difference(to: original.image)
            #expect(difference.mean < 6, "frame \(back.index): mean difference \(difference.mean)")
        }
    }

    /// The attack is real: the source does carry the metadata.
    static func sourceHasTheMetadata(_ file: URL) throws -> Bool {
        let text = String(decoding: try VideoClips.run("ffprobe", ["-v", "error", "-of", "json", "-show_format",
                                                                   "-show_streams", file.path]), as: UTF8.self)
        return text.contains("Alice") && text.contains("PhoneCam")
    }

    @Test func theSameFramesGiveTheSameBytes() throws {
        let clips = try VideoClips()
        let file = try Self.makeSource(clips, Self.sources[0])
        _ = try Self.reencode(file, to: clips.url("first.mp4"))
        _ = try Self.reencode(file, to: clips.url("second.mp4"))
        let first = try Data(contentsOf: clips.url("first.mp4")), second = try Data(contentsOf: clips.url("second.mp4"))
        #expect(first == second)
        print("encoded-fingerprint \(String(fnv1a([UInt8](first)), radix: 16))")
    }

    @Test func oddSizesLoseTheirLastColumnAndRowAndRotatedFramesAreWrittenUpright() throws {
        let clips = try VideoClips()
        let stored = try clips.make("stored.mp4", ["-f", "lavfi", "-i", "testsrc2=size=96x48:rate=12:duration=0.5",
                                                   "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let tagged = try clips.make("tagged.mp4", ["-i", stored.path, "-metadata:s:v", "rotate=90", "-c", "copy"])
        // Upright (48×96), then one column and one row cut: 47×95 frames are appended.
        let output = clips.url("upright.mp4")
        let (info, _) = try Self.reencode(tagged, to: output) { image in
            let upright = image.turnedClockwise(270)
            var pixels: [UInt8] = []
            for y in 0..<95 { pixels += upright.pixels[(y * 48 * 3)..<(y * 48 * 3 + 47 * 3)] }
            return RGBImage(width: 47, height: 95, pixels: pixels)
        }
        #expect(info.rotation == 270)
        let probed = try VideoClips.probe(output, ["-show_streams"])
        let video = try #require((probed["streams"] as? [[String: Any]])?.first)
        #expect(video["width"] as? Int == 46 && video["height"] as? Int == 94)
        #expect(video["side_data_list"] == nil, "a display matrix was written")
    }

    @Test func refusesFramesOfAnotherSizeOrOutOfOrder() throws {
        let clips = try VideoClips()
        let file = try Self.makeSource(clips, Self.sources[0])
        try VideoClips.withDescriptor(file) { fd in
            let decoder = try VideoDecoder(.fileDescriptor(fd), name: "phone.mp4", maxPixels: 1 << 24)
            let out = open(clips.url("out.mp4").path, O_CREAT | O_EXCL | O_WRONLY, 0o644)
            defer { close(out) }
            let encoder = try VideoEncoder(output: out, source: .fileDescriptor(fd), sourceInfo: decoder.info,
                                           width: 160, height: 96, encoding: .standard)
            let frame = try #require(try decoder.next())
            #expect(throws: VideoError.self) { try encoder.append(RGBImage(width: 96, height: 160), pts: frame.pts) }
            try encoder.append(frame.image, pts: frame.pts)
            #expect(throws: VideoError.self) { try encoder.append(frame.image, pts: frame.pts) }
            #expect(throws: VideoError.self) {
                _ = try VideoEncoder(output: out, source: .fileDescriptor(fd), sourceInfo: decoder.info,
                                     width: 160, height: 96, encoding: VideoEncoding(crf: 60, preset: "medium"))
            }
        }
    }
}

func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}
