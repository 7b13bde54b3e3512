import Foundation
import Testing
import _TestSupport

/// Issue 50 row 2, through the built binary: what a hostile source hides in
/// its audio's codec configuration (a Vorbis comment header with a place, a
/// title, a date and a face JPEG as METADATA_BLOCK_PICTURE; a JPEG appended
/// to Opus's, AAC's CodecPrivate; a FLAC picture block) never reaches
/// `anonymize`'s video, which keeps audio that decodes (docs/VIDEO.md,
/// "Container and audio"). Read back as a user would: ffprobe, ffmpeg, and
/// the output's bytes.
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary"),
       .enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: FileManager.default.fileExists(atPath: Fixtures.photo("Tom_Hanks_54745.png").path), "needs datasets/sources (make sources)"))
struct VideoAudioSafetyTests {
    struct Case: Sendable, CustomStringConvertible {
        var codec: String
        var encoder: [String]
        /// What the output's audio stream is, and its codec configuration's size.
        var outputCodec: String
        var outputExtradata: Int?
        var description: String { codec }
    }

    static let cases: [Case] = [
        Case(codec: "vorbis", encoder: ["-c:a", "libvorbis"], outputCodec: "aac", outputExtradata: nil),
        Case(codec: "opus", encoder: ["-c:a", "libopus"], outputCodec: "opus", outputExtradata: 19),
        Case(codec: "aac", encoder: ["-c:a", "aac"], outputCodec: "aac", outputExtradata: 2),
        // FLAC: STREAMINFO alone (Matroska's demuxer gives its 34 bytes).
        Case(codec: "flac", encoder: ["-c:a", "flac"], outputCodec: "flac", outputExtradata: 34),
    ]

    static let secrets = ["Alice at home", "+48.8582+002.2945", "2021-06-01", "HostileVendor", "LOCATION=", "TITLE=", "DATE="]
    static let fields = ["LOCATION=+48.8582+002.2945/", "TITLE=Alice at home", "DATE=2021-06-01T10:00:00Z"]

    /// The hostile CodecPrivate for `codec`, made from the one ffmpeg wrote.
    static func hostile(_ codec: String, _ old: [UInt8], jpeg: [UInt8]) throws -> [UInt8] {
        switch codec {
        case "vorbis":
            let headers = try MatroskaAudioPrivate.vorbisHeaders(old)
            let picture = "METADATA_BLOCK_PICTURE=" + Data(MatroskaAudioPrivate.picture(jpeg: jpeg)).base64EncodedString()
            var comment: [UInt8] = [3]
            comment += Array("vorbis".utf8)
            comment += MatroskaAudioPrivate.comments(vendor: "HostileVendor 1.0", fields + [picture])
            comment.append(1)
            return MatroskaAudioPrivate.vorbisPrivate([headers[0], comment, headers[2]])
        case "flac":
            // fLaC, STREAMINFO (a name where its MD5 goes), then a VORBIS_COMMENT and a PICTURE block (the last).
            let streamInfo = Array(old[8..<26]) + Array("Alice at home!!!".utf8)
            let comments = MatroskaAudioPrivate.comments(vendor: "HostileVendor 1.0", fields)
            let picture = MatroskaAudioPrivate.picture(jpeg: jpeg)
            func header(_ type: UInt8, _ count: Int) -> [UInt8] { [type, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)] }
            var out: [UInt8] = Array("fLaC".utf8)
            out += header(0, 34)
            out += streamInfo
            out += header(4, comments.count)
            out += comments
            out += header(0x86, picture.count)
            out += picture
            return out
        default:
            var out: [UInt8] = old
            out += jpeg
            out += Array(fields.joined(separator: "\n").utf8)
            return out
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    /// Windows of the JPEG (its header, and three pieces of its coded data) and of its base64 text.
    static func pieces(of jpeg: [UInt8]) -> [[UInt8]] {
        let base64 = Array(Data(MatroskaAudioPrivate.picture(jpeg: jpeg)).base64EncodedString().utf8)
        var pieces: [[UInt8]] = [Array(jpeg.prefix(64))]
        for fraction in [0.3, 0.5, 0.8] {
            let start = Int(Double(jpeg.count) * fraction)
            pieces.append(Array(jpeg[start..<min(start + 32, jpeg.count)]))
        }
        pieces.append(Array(base64[200..<248]))
        return pieces
    }

    @Test(arguments: cases)
    func nothingOfTheSourcesAudioConfigurationReachesTheOutput(_ testCase: Case) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A face JPEG, and a short clip of a face with a tone, written live (no Cues) so its track list can be rewritten.
        let jpegFile = folder.appendingPathComponent("face.jpg")
        try VideoClips.ffmpeg(["-i", Fixtures.photo("Tom_Hanks_54745.png").path, "-vf", "scale=96:-2", "-q:v", "3"], output: jpegFile)
        let jpeg = [UInt8](try Data(contentsOf: jpegFile))
        let plain = folder.appendingPathComponent("plain.mkv")
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=320x240:r=5", "-i", Fixtures.photo("Tom_Hanks_54745.png").path,
                               "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                               "-filter_complex", "[1]scale=160:-2[face];[0][face]overlay=x=40:y=20",
                               "-frames:v", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "0", "-shortest"]
                              + testCase.encoder + ["-live", "1", "-fflags", "+bitexact"], output: plain)
        let clip = folder.appendingPathComponent("hostile.mkv")
        var rewriteError: (any Error)?
        let rewritten = try MatroskaAudioPrivate.replacing(in: [UInt8](try Data(contentsOf: plain))) { old in
            do { return try Self.hostile(testCase.codec, old, jpeg: jpeg) } catch { rewriteError = error; return old }
        }
        if let rewriteError { throw rewriteError }
        try Data(rewritten).write(to: clip)

        // The attack is real: FFmpeg reads the source, and its audio configuration carries the JPEG and the strings.
        let sourceAudio = try Self.audioStream(clip)
        #expect(sourceAudio["codec_name"] as? String == testCase.codec)
        #expect(Self.pieces(of: jpeg).contains { Self.contains(rewritten, $0) })
        #expect(Self.contains(rewritten, Array("Alice at home".utf8)))

        let run = try FacepipeProcess.run(["run", "--pipeline", "anonymize", clip.path, "--out", "out", "--workers", "1"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let output = folder.appendingPathComponent("out/images/hostile.mkv/hostile.mkv")
        let bytes = [UInt8](try Data(contentsOf: output))

        // Nothing of the JPEG (raw or base64), of the tags or of the source encoder's (vendor) string is anywhere in the file.
        for piece in Self.pieces(of: jpeg) { #expect(!Self.contains(bytes, piece), "a piece of the face JPEG is in the output") }
        for secret in Self.secrets { #expect(!Self.contains(bytes, Array(secret.utf8)), "\(secret) is in the output") }

        // The audio is there, with a codec configuration of only what its decoder needs, and decodes without an error.
        let audio = try Self.audioStream(output)
        #expect(audio["codec_name"] as? String == testCase.outputCodec)
        if let size = testCase.outputExtradata { #expect(audio["extradata_size"] as? Int == size, "\(audio)") }
        #expect(audio["tags"] == nil || (audio["tags"] as? [String: Any])?.keys.allSatisfy { ["ENCODER", "DURATION"].contains($0) } == true,
                "\(audio["tags"] ?? "")")
        let decoded = Self.decodeErrors(output)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
        let seconds = Double(try Self.format(output)["duration"] as? String ?? "") ?? 0
        #expect(seconds > 0.5, "duration \(seconds)")
    }

    static func audioStream(_ file: URL) throws -> [String: Any] {
        let data = try VideoProbe.json(file, ["-show_streams", "-show_data", "-select_streams", "a"])
        return (data["streams"] as? [[String: Any]])?.first ?? [:]
    }

    static func format(_ file: URL) throws -> [String: Any] {
        try VideoProbe.json(file, ["-show_format"])["format"] as? [String: Any] ?? [:]
    }

    /// `ffmpeg -v error -i FILE -f null -`: its exit status and what it complained of.
    static func decodeErrors(_ file: URL) -> (status: Int32, errors: String) {
        guard let result = try? ChildProcess.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-f", "null", "-"]) else {
            return (-1, "ffmpeg did not start")
        }
        return (result.status, result.errors)
    }
}

/// A clip whose first video stream is a decoy and whose second shows the
/// face: the run says that only one stream was processed (summary line and
/// run.json's notes), for `anonymize` and for `training-annotations`, and
/// `anonymize`'s video holds that one stream only, never the other.
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary"),
       .enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: FileManager.default.fileExists(atPath: Fixtures.photo("Tom_Hanks_54745.png").path), "needs datasets/sources (make sources)"))
struct VideoSecondStreamTests {
    @Test(arguments: ["anonymize", "training-annotations"])
    func aSecondVideoStreamIsNamedAndNeverCopied(_ pipeline: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let face = folder.appendingPathComponent("face.mkv")
        try VideoClips.pannedFace(face, photo: Fixtures.photo("Tom_Hanks_54745.png"), frames: 3)
        let clip = folder.appendingPathComponent("two.mkv")
        try VideoClips.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=480x320:r=5", "-i", face.path,
                               "-map", "0:v", "-map", "1:v", "-frames:v", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p"], output: clip)
        #expect((try VideoProbe.json(clip, ["-show_streams"])["streams"] as? [Any])?.count == 2)

        let run = try FacepipeProcess.run(["run", "--pipeline", pipeline, clip.path, "--out", "out", "--workers", "1"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("two.mkv has 2 video streams: only stream 1"), "\(run.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/run.json"))) as? [String: Any]
        let notes = (record?["summary"] as? [String: Any])?["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("2 video streams") && $0.contains("in no output") }, "\(notes)")
        if pipeline == "anonymize" {
            let output = folder.appendingPathComponent("out/images/two.mkv/two.mkv")
            let streams = try VideoProbe.json(output, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
            #expect(streams.filter { $0["codec_type"] as? String == "video" }.count == 1)
        }
    }
}
