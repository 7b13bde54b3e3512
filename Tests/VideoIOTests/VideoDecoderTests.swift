import Foundation
import ImageCore
import Testing
import VideoIO

@Suite struct VideoDecoderTests {
    struct Codec: Sendable, CustomStringConvertible {
        var file: String
        var encoder: [String]
        var codec: String
        var description: String { file }
    }

    static let codecs: [Codec] = [
        Codec(file: "h264.mp4", encoder: ["-c:v", "libx264", "-pix_fmt", "yuv420p"], codec: "h264"),
        Codec(file: "hevc.mov", encoder: ["-c:v", "libx265", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p"], codec: "hevc"),
        Codec(file: "vp9.webm", encoder: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"], codec: "vp9"),
        Codec(file: "av1.mkv", encoder: ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime"], codec: "av1"),
        Codec(file: "h264-444-10bit.mkv", encoder: ["-c:v", "libx264", "-pix_fmt", "yuv444p10le"], codec: "h264"),
    ]

    /// 12 frames of 160×96 at 12 fps.
    static let source = ["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=12:duration=1"]

    @Test(arguments: codecs)
    func decodesEachCodecToFramesCloseToFFmpegsOwn(_ codec: Codec) throws {
        let clips = try VideoClips()
        let file = try clips.make(codec.file, Self.source + codec.encoder)
        let fromBytes = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))))
        let fromFile = try VideoClips.withDescriptor(file) { VideoClips.decodeAll(.fileDescriptor($0)) }
        #expect(fromBytes.error == nil && fromFile.error == nil, "\(String(describing: fromBytes.error))")
        let info = try #require(fromBytes.info)
        #expect(info == fromFile.info)
        #expect(info.codec == codec.codec)
        #expect(info.width == 160 && info.height == 96 && info.rotation == 0)
        #expect(info.frameRate.doubleValue == 12)
        #expect(fromBytes.frames.map(\.index) == Array(0..<12))
        let sameFrames = fromBytes.frames.count == fromFile.frames.count
            && zip(fromBytes.frames, fromFile.frames).allSatisfy { $0.pts == $1.pts && $0.image == $1.image }
        #expect(sameFrames, "the frames read from bytes and from the file differ")
        for frame in fromBytes.frames {   // Matroska keeps milliseconds
            #expect(abs(frame.seconds - Double(frame.index) / 12) < 0.001)
        }
        // ffmpeg's swscale interpolates chroma and rounds differently: close, not equal.
        let reference = try VideoClips.ffmpegFrames(file, width: 160, height: 96)
        #expect(reference.count == 12)
        for (ours, theirs) in zip(fromBytes.frames, reference) {
            let difference = ours.image.difference(to: theirs)
            #expect(difference.mean < 4, "frame \(ours.index): mean difference \(difference.mean)")
        }
        print("decoded-fingerprint \(codec.file) \(String(fingerprint(fromBytes.frames), radix: 16))")
    }

    @Test func presentationOrderAndTimestampsMatchFFprobe() throws {
        let clips = try VideoClips()
        // B-frames: decoding order differs from presentation order.
        let file = try clips.make("bframes.mp4", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:duration=1",
                                                  "-c:v", "libx264", "-bf", "3", "-g", "12", "-pix_fmt", "yuv420p"])
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))))
        #expect(decoded.error == nil)
        let probed = try VideoClips.probe(file, ["-select_streams", "v", "-show_entries", "frame=best_effort_timestamp"])
        let expected = (probed["frames"] as? [[String: Any]] ?? []).compactMap { $0["best_effort_timestamp"] as? Int }
        #expect(expected.count == 25)
        #expect(decoded.frames.map { Int($0.pts) } == expected)
        let increasing = zip(decoded.frames, decoded.frames.dropFirst()).allSatisfy { $0.pts < $1.pts }
        #expect(increasing)
        let info = try #require(decoded.info)
        #expect(info.frameCountHint == 25)
        #expect(abs((info.duration ?? 0) - 1) < 0.05)
    }

    @Test func readsAnMP4WithItsIndexAtTheEndFromAFileAndFromBytes() throws {
        let clips = try VideoClips()
        let arguments = Self.source + ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        let atEnd = try clips.make("moov-at-end.mp4", arguments)
        let atStart = try clips.make("moov-at-start.mp4", arguments + ["-movflags", "+faststart"])
        func moovAfterMdat(_ file: URL) throws -> Bool {
            let bytes = [UInt8](try Data(contentsOf: file))
            func offset(_ tag: String) -> Int? {
                let t = Array(tag.utf8)
                return (0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == t }
            }
            return try #require(offset("moov")) > (try #require(offset("mdat")))
        }
        #expect(try moovAfterMdat(atEnd))
        #expect(try !moovAfterMdat(atStart))
        let reference = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: atStart))))
        let fromBytes = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: atEnd))))
        let fromFile = try VideoClips.withDescriptor(atEnd) { fd in
            let before = lseek(fd, 0, SEEK_CUR)
            let decoded = VideoClips.decodeAll(.fileDescriptor(fd))
            #expect(lseek(fd, 0, SEEK_CUR) == before, "the descriptor's offset moved")
            return decoded
        }
        #expect(reference.frames.count == 12)
        for decoded in [fromBytes, fromFile] {
            #expect(decoded.error == nil)
            let sameImages = decoded.frames.map(\.image) == reference.frames.map(\.image)
            #expect(sameImages)
            #expect(decoded.frames.map(\.pts) == reference.frames.map(\.pts))
        }
    }

    struct ColourCase: Sendable, CustomStringConvertible {
        var matrix: String
        var range: String
        var description: String { "\(matrix) \(range)" }
    }

    @Test(arguments: [ColourCase(matrix: "bt601", range: "tv"), ColourCase(matrix: "bt709", range: "tv"),
                      ColourCase(matrix: "bt601", range: "pc"), ColourCase(matrix: "bt709", range: "pc")])
    func honoursTheStreamsColourMatrixAndRange(_ colour: ColourCase) throws {
        let clips = try VideoClips()
        // A saturated colour, converted to Y'CbCr with the case's matrix and range and stored losslessly:
        // decoding it with the other matrix or range is off by far more than the tolerance.
        let tagMatrix = colour.matrix == "bt601" ? "smpte170m" : "bt709"
        let file = try clips.make("colour.mp4", [
            "-f", "lavfi", "-i", "color=c=0xC8285A:size=64x48:rate=12:duration=0.25",
            "-vf", "format=rgb24,scale=out_color_matrix=\(colour.matrix):out_range=\(colour.range)"
                + ":flags=accurate_rnd+full_chroma_int,format=\(colour.range == "pc" ? "yuvj420p" : "yuv420p")",
            "-colorspace", tagMatrix, "-color_range", colour.range, "-c:v", "libx264", "-qp", "0"])
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))))
        #expect(decoded.error == nil)
        let frame = try #require(decoded.frames.first)
        let (r, g, b) = frame.image.rgb(32, 24)
        #expect(abs(r - 0xC8) <= 3 && abs(g - 0x28) <= 3 && abs(b - 0x5A) <= 3, "decoded (\(r), \(g), \(b))")
    }

    @Test(arguments: [90, 180, 270])
    func rotationIsTheClockwiseTurnThatMakesAPhoneClipUpright(_ degrees: Int) throws {
        let clips = try VideoClips()
        // Stored 96×48: red top half, blue bottom half, a green square at the top left.
        let stored = try clips.make("stored.mp4", [
            "-filter_complex",
            "color=c=red:size=96x24:rate=12:duration=0.25[a];color=c=blue:size=96x24:rate=12:duration=0.25[b];"
                + "[a][b]vstack,drawbox=x=0:y=0:w=16:h=16:color=lime:t=fill",
            "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        // What a phone writes: a display matrix, the same video packets.
        let tagged = try clips.make("tagged.mp4", ["-i", stored.path, "-metadata:s:v", "rotate=\(degrees)", "-c", "copy"])
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: tagged))))
        let info = try #require(decoded.info)
        #expect(info.width == 96 && info.height == 48)
        // FFmpeg 5.1's `rotate=N` writes a matrix that turns the picture N° counterclockwise for display
        // (ffprobe: "rotation=N"); a phone's portrait clip has ffprobe rotation=-90, here rotation 90.
        #expect(info.rotation == (360 - degrees) % 360)
        // ffmpeg's player-side autorotation is the reference for "upright".
        let upright = try #require(decoded.frames.first).image.turnedClockwise(info.rotation)
        let turned = degrees % 180 == 0 ? (96, 48) : (48, 96)
        let reference = try #require(try VideoClips.ffmpegFrames(tagged, width: turned.0, height: turned.1, autorotate: true).first)
        #expect(upright.width == reference.width && upright.height == reference.height)
        if upright.width == reference.width {
            #expect(upright.difference(to: reference).mean < 4)
        }
    }
}
