import Foundation
import ImageCore
import Testing
import VideoIO

/// Inputs made to break the decoder: each gives a typed error naming the clip, after the frames before the damage.
@Suite struct HostileVideoTests {
    static let clip = ["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=12:duration=2", "-g", "6"]

    @Test func aTruncatedClipDeliversTheFramesBeforeTheCutThenSaysWhere() throws {
        let clips = try VideoClips()
        for (file, encoder) in [("cut.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
                                ("cut.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"])] {
            let whole = [UInt8](try Data(contentsOf: try clips.make(file, Self.clip + encoder)))
            let intact = VideoClips.decodeAll(.bytes(whole))
            #expect(intact.frames.count == 24)
            let cut = Array(whole.prefix(whole.count * 6 / 10))
            let decoded = VideoClips.decodeAll(.bytes(cut), name: file)
            guard let error = decoded.error else {
                Issue.record("\(file): no error after \(decoded.frames.count) frames")
                continue
            }
            let delivered = decoded.frames.count
            #expect(delivered > 0 && delivered < 24, "\(file): \(delivered) frames")
            let sameImages = decoded.frames.map(\.image) == intact.frames.prefix(delivered).map(\.image)
            #expect(sameImages, "\(file): the frames before the cut differ from the intact clip's")
            #expect(error == .truncated(file, frame: delivered))
            #expect(error.description.contains(file) && error.description.contains("frame \(delivered)"))
        }
    }

    @Test func bytesOverwrittenInTheMiddleGiveADamagedError() throws {
        let clips = try VideoClips()
        let file = try clips.make("damaged.mp4", Self.clip + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        var bytes = [UInt8](try Data(contentsOf: file))
        let intact = VideoClips.decodeAll(.bytes(bytes))
        let middle = bytes.count / 2
        for i in middle..<(middle + 400) { bytes[i] = UInt8(truncatingIfNeeded: i &* 151 &+ 7) }
        let decoded = VideoClips.decodeAll(.bytes(bytes), name: "damaged.mp4")
        guard let error = decoded.error else {
            Issue.record("no error after \(decoded.frames.count) frames")
            return
        }
        let delivered = decoded.frames.count
        #expect(delivered > 0 && delivered < 24)
        let sameImages = decoded.frames.map(\.image) == intact.frames.prefix(delivered).map(\.image)
        #expect(sameImages, "the frames before the damage differ from the intact clip's")
        guard case .damaged("damaged.mp4", delivered, _) = error else {
            Issue.record("\(error)")
            return
        }
    }

    /// A Matroska clip with a stretch of its bytes written twice: FFmpeg's demuxer logs that an element
    /// "exceeds containing master element", resyncs to the next cluster and goes on, so frames are lost
    /// without a failing call. Whatever stretch is repeated, the clip either decodes all its frames or ends
    /// with an error after frames equal to the intact clip's; never short and silent.
    /// (H.264 is decoded with `explode`, so the frames before the error are the intact clip's; VP9's decoder
    /// conceals a damaged frame without complaint and later frames predicted from it differ: docs/VIDEO.md,
    /// "Damage".)
    @Test(arguments: [("twice.mkv", ["-c:v", "libx264", "-g", "5"], true),
                      ("twice.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "5"], false)])
    func aChunkWrittenTwiceLosesNoFrameSilently(file: String, encoder: [String], strictCodec: Bool) throws {
        let clips = try VideoClips()
        let whole = [UInt8](try Data(contentsOf: try clips.make(
            file, ["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=10:duration=1"] + encoder)))
        let intact = VideoClips.decodeAll(.bytes(whole))
        try #require(intact.frames.count == 10 && intact.error == nil)
        var silentlyShort: [String] = [], endedWithError = 0
        for start in stride(from: 1000, to: whole.count - 200, by: 397) {
            for length in [64, 500, 2000] {
                let end = min(start + length, whole.count)
                let twice = Array(whole[..<end] + whole[start..<end] + whole[end...])
                let decoded = VideoClips.decodeAll(.bytes(twice), name: file)
                let delivered = decoded.frames.count
                // The last frame delivered may be the one whose packet holds the start of the repeat, which
                // the codec may conceal without complaint (docs/VIDEO.md, "Damage"): the ones before it are intact.
                let same = decoded.frames.dropLast().map(\.image) == intact.frames.prefix(max(0, delivered - 1)).map(\.image)
                switch decoded.error {
                case nil:
                    if delivered != 10 { silentlyShort.append("\(start)+\(length): \(delivered) frames") }
                case .damaged(file, delivered, _)?, .truncated(file, delivered)?:
                    endedWithError += 1
                    // (All 10 and then an error: the repeat damaged what follows the last frame, the Cues.)
                    #expect(same || !strictCodec, "\(start)+\(length): \(delivered) frames before the error")
                case let error?:
                    // A repeat inside the header: the clip does not open.
                    #expect(delivered == 0, "\(start)+\(length): \(error)")
                    endedWithError += 1
                }
            }
        }
        #expect(silentlyShort.isEmpty, "\(file): frames lost without an error: \(silentlyShort)")
        #expect(endedWithError > 0)
    }

    /// FFmpeg checks the frame it allocates, rows padded to 64 pixels, so with the limit passed on as it is a
    /// frame inside it whose width is not a multiple of 64 failed as "damaged at frame 0" (10000×10000 under
    /// 100 megapixels). A frame of exactly the limit decodes; one pixel less refuses it, saying why.
    @Test(arguments: [(200, 120), (1000, 90), (330, 66)])
    func aFrameOfExactlyThePixelLimitDecodes(width: Int, height: Int) throws {
        let clips = try VideoClips()
        let file = try clips.make("limit.mkv", ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=10:duration=0.3",
                                                "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let bytes = [UInt8](try Data(contentsOf: file))
        let decoded = VideoClips.decodeAll(.bytes(bytes), name: "limit.mkv", maxPixels: width * height)
        #expect(decoded.error == nil && decoded.frames.count == 3, "\(String(describing: decoded.error))")
        let refused = VideoClips.decodeAll(.bytes(bytes), name: "limit.mkv", maxPixels: width * height - 1)
        #expect(refused.error == .tooManyPixels("limit.mkv", width: width, height: height, max: width * height - 1))
        #expect(refused.error?.description.contains("over the pixel limit") == true)
    }

    /// The clip of the report: 10000×10000 is 100 megapixels, the documented limit (`VideoReading.standard`).
    @Test func aTenThousandPixelSquareFrameDecodesUnderTheDefaultLimit() throws {
        let clips = try VideoClips()
        let file = try clips.make("square.mp4", ["-f", "lavfi", "-i", "color=c=gray:s=10000x10000:r=1:d=1",
                                                 "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let decoder = try VideoDecoder(.bytes([UInt8](try Data(contentsOf: file))), name: "square.mp4", maxPixels: 100_000_000)
        let frame = try #require(try decoder.next())
        #expect(frame.image.width == 10000 && frame.image.height == 10000)
        #expect(try decoder.next() == nil)
    }

    @Test func aHeaderDeclaringMorePixelsThanAllowedIsRefusedBeforeDecoding() throws {
        let clips = try VideoClips()
        let file = try clips.make("big.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=12:duration=0.5",
                                              "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        var bytes = [UInt8](try Data(contentsOf: file))
        #expect(throws: VideoError.tooManyPixels("big.mp4", width: 320, height: 240, max: 320 * 240 - 1)) {
            _ = try VideoDecoder(.bytes(bytes), name: "big.mp4", maxPixels: 320 * 240 - 1)
        }
        // The sample entry (avc1) says 65535×65535: refused from the header, whatever the stream holds.
        let stsd = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("stsd".utf8) })
        let avc1 = try #require((stsd..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("avc1".utf8) })
        for i in (avc1 + 28)..<(avc1 + 32) { bytes[i] = 0xFF }
        #expect(throws: VideoError.tooManyPixels("big.mp4", width: 65535, height: 65535, max: 1 << 24)) {
            _ = try VideoDecoder(.bytes(bytes), name: "big.mp4", maxPixels: 1 << 24)
        }
    }

    @Test func audioOnlyAndFramelessFilesSaySo() throws {
        let clips = try VideoClips()
        let audio = try clips.make("audio.mp4", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-c:a", "aac"])
        #expect(throws: VideoError.noVideoStream("audio.mp4")) {
            _ = try VideoDecoder(.bytes([UInt8](try Data(contentsOf: audio))), name: "audio.mp4", maxPixels: 1 << 24)
        }
        // A Matroska file whose track says H.264 but that holds no cluster (cut after its header).
        let whole = [UInt8](try Data(contentsOf: try clips.make("frameless.mkv", Self.clip + ["-c:v", "libx264"])))
        let cluster = try #require((0..<(whole.count - 4)).first { Array(whole[$0..<($0 + 4)]) == [0x1F, 0x43, 0xB6, 0x75] })
        let frameless = VideoClips.decodeAll(.bytes(Array(whole.prefix(cluster))), name: "frameless.mkv")
        #expect(frameless.frames.isEmpty)
        switch frameless.error {
        case .noFrames("frameless.mkv"), .invalidContainer("frameless.mkv", _): break
        default: Issue.record("\(String(describing: frameless.error))")
        }
    }

    @Test func whatIsNotAVideoContainerIsRefusedWithoutFFmpegProbingIt() throws {
        let playlist = Array("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n".utf8)
        let concat = Array("ffconcat version 1.0\nfile '/etc/hostname'\n".utf8)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]
        for (name, bytes) in [("list.m3u8", playlist), ("list.mp4", concat), ("photo.mp4", jpeg), ("empty.mp4", [])] {
            #expect(throws: VideoError.notAVideo(name)) {
                _ = try VideoDecoder(.bytes(bytes), name: name, maxPixels: 1 << 24)
            }
        }
        // An MP4 header followed by garbage: FFmpeg's mov demuxer only, and it finds no stream.
        let garbage: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8) + [UInt8](repeating: 0x41, count: 200)
        let decoded = VideoClips.decodeAll(.bytes(garbage), name: "garbage.mp4")
        switch decoded.error {
        case .invalidContainer("garbage.mp4", _), .noVideoStream("garbage.mp4"): break
        default: Issue.record("\(String(describing: decoded.error))")
        }
    }

    @Test func aStreamThatChangesItsFrameSizeStopsThere() throws {
        let clips = try VideoClips()
        // Two H.264 streams of different sizes, one after the other in one track.
        var stream: [UInt8] = []
        for (name, size) in [("first.h264", "160x96"), ("second.h264", "128x64")] {
            let part = try clips.make(name, ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=12:duration=0.5",
                                             "-c:v", "libx264", "-bf", "0", "-f", "h264"])
            stream += [UInt8](try Data(contentsOf: part))
        }
        try Data(stream).write(to: clips.url("both.h264"))
        let file = try clips.make("sizes.mkv", ["-f", "h264", "-i", clips.url("both.h264").path, "-c", "copy",
                                                "-bsf:v", "setts=ts=N", "-time_base", "1/12"])
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))), name: "sizes.mkv")
        #expect(decoded.frames.count == 6)
        #expect(decoded.error == .frameSizeChanged("sizes.mkv", frame: 6, width: 128, height: 64))
    }

    @Test func aCodecOutsideTheFourIsRefusedByName() throws {
        let clips = try VideoClips()
        let file = try clips.make("mpeg4.mp4", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=12:duration=0.25", "-c:v", "mpeg4"])
        #expect(throws: VideoError.unsupportedCodec("mpeg4.mp4", codec: "mpeg4")) {
            _ = try VideoDecoder(.bytes([UInt8](try Data(contentsOf: file))), name: "mpeg4.mp4", maxPixels: 1 << 24)
        }
    }

    @Test func aDescriptorThatIsNotARegularFileIsRefused() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(throws: VideoError.unreadable("pipe", errno: EINVAL)) {
            _ = try VideoDecoder(.fileDescriptor(fds[0]), name: "pipe", maxPixels: 1 << 24)
        }
    }
}
