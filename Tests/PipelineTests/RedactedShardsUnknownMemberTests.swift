import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing
import _TestSupport

/// The allow-list of `--redacted-shards` (``NonVisualContent``): what may be
/// copied into a redacted shard is decided by content, deny by default.
struct NonVisualContentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        var testDescription: String { label }
        init(_ label: String, _ bytes: [UInt8]) { self.label = label; self.bytes = bytes }
        init(_ label: String, _ text: String) { self.init(label, Array(text.utf8)) }
    }

    static let known: [(Case, NonVisualContent)] = [
        (Case("empty", []), .empty),
        (Case("a caption", "a person smiling at the camera\n"), .text),
        (Case("a class label", "3"), .text),
        (Case("WebDataset JSON", #"{"caption": "a face", "url": "https://example.org/0.jpg", "width": 640, "height": 480}"#), .text),
        (Case("minified JSON with boxes", #"{"boxes":[[12,40,96,130],[200,48,260,120]],"labels":["face","face"]}"#), .text),
        (Case("CSV with a CRLF and a tab", "key,label\r\nk0,3\r\nk1,\t7\r\n"), .text),
        (Case("UTF-8 after a BOM, accents and emoji", [0xEF, 0xBB, 0xBF] + Array("légende: café ☕ 😀\n".utf8)), .text),
        (Case("HTML linking to an image", "<html><body><p>a caption</p><img src=\"0.jpg\"></body></html>"), .text),
        (Case("a SHA-512 in hex (128 characters)", String(repeating: "ab01", count: 32)), .text),
        (Case("255 numbers from 0 to 255", (0..<255).map(String.init).joined(separator: " ")), .text),
        (Case("landmarks as decimals", (0..<600).map { "\(Double($0) / 7)" }.joined(separator: ", ")), .text),
        (Case("numbers above 255", (256..<1000).map(String.init).joined(separator: ",")), .text),
    ]

    @Test(arguments: known)
    func knownNonVisualMembersAreCopied(_ member: Case, kind: NonVisualContent) {
        #expect(NonVisualContent.classify(member.bytes) == .success(kind))
        for copyUnknown in [false, true] {
            #expect(RedactedTarMember(name: "k0.bin", data: member.bytes, copyUnknown: copyUnknown) == .copied)
        }
    }

    static let unknown: [(Case, String)] = {
        let binary = "binary data (not UTF-8 text)"
        let controls = "text with control characters"
        let encoded = "text with a base64 or hex run of more than 128 characters (encoded data)"
        let pixels = "text with a run of more than 255 numbers from 0 to 255 (pixel values, perhaps)"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "a caption".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let fer: String = "emotion,pixels,Usage\n0," + (0..<2304).map { String(($0 * 37) % 256) }.joined(separator: " ") + ",Training\n"
        typealias P = PlantedMembers
        let mp4: [UInt8] = P.be32(8) + P.ascii("free") + P.be32(24) + P.ascii("ftypisom") + [0, 0, 2, 0] + P.ascii("isomiso2")
        let numpy: [UInt8] = [0x93] + P.ascii("NUMPY") + [1, 0, 0x76, 0] + P.ascii("{'descr': '|u1'}")
        let webp: [UInt8] = P.ascii("RIFF") + P.le32(200) + P.ascii("WEBPVP8 ") + [UInt8](repeating: 0x9D, count: 200)
        let webpJSON: String = #"{"thumb": ""# + Data(webp).base64EncodedString() + #""}"#
        let rows: [String] = (0..<16).map { row in "[" + (0..<16).map { String(($0 + row) * 7) }.joined(separator: ",") + "]" }
        let numbers: String = (0..<256).map(String.init).joined(separator: " ")
        var cases: [(Case, String)] = []
        cases.append((Case("MPEG-TS packets", [0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00]), binary))
        cases.append((Case("H.264 Annex B", [0, 0, 0, 1, 0x67, 0x64, 0x00, 0x0C, 0xAC, 0xD9, 0x41, 0x41]), binary))
        cases.append((Case("an MP4 whose first box is free", mp4), binary))
        cases.append((Case("NumPy array", numpy), binary))
        cases.append((Case("text in UTF-16", utf16), binary))
        cases.append((Case("Latin-1 text", [0x63, 0x61, 0x66, 0xE9, 0x0A]), binary))
        cases.append((Case("text with a NUL", "a caption\u{0}"), binary))
        cases.append((Case("text with an escape sequence", "a caption\u{1B}[2J"), controls))
        cases.append((Case("text with a C1 control", "a caption\u{85}"), controls))
        cases.append((Case("text with a DEL", "a caption\u{7F}"), controls))
        cases.append((Case("129 hex characters", String(repeating: "ab01", count: 32) + "c"), encoded))
        cases.append((Case("JSON with a base64 WebP", webpJSON), encoded))
        cases.append((Case("256 numbers from 0 to 255", numbers), pixels))
        cases.append((Case("a FER-2013 row (a 48×48 face as numbers)", fer), pixels))
        cases.append((Case("a 16×16 picture as a JSON array of rows", "[" + rows.joined(separator: ",") + "]"), pixels))
        return cases
    }()

    @Test(arguments: unknown)
    func everythingElseIsLeftOutUnlessCopyUnknown(_ member: Case, what: String) {
        #expect(NonVisualContent.classify(member.bytes) == .failure(NonVisualContent.Unknown(what: what)))
        #expect(RedactedTarMember(name: "k0.txt", data: member.bytes, copyUnknown: false)
                == .leftOut(reason: "left out of the redacted shard: \(what), not known to carry no picture (--copy-unknown copies it)"))
        #expect(RedactedTarMember(name: "k0.txt", data: member.bytes, copyUnknown: true) == .copied)
    }
}

/// Video in containers facepipe does not read, planted in a tar and run
/// through the built binary: `run anonymize --redacted-shards` leaves every
/// one out of the shard and names it in its summary; `--copy-unknown`
/// copies them byte for byte; captions, JSON and labels are copied either way.
@Suite(.enabled(if: Fixtures.modelsAvailable && FacepipeProcess.available, "run `make models` and build the binary first"))
struct RedactedShardsUnknownContainerTests {
    /// `ffmpeg` output options for 5 frames of `testsrc`, and the box that
    /// FFmpeg writes second (after `ftyp`) to move to the front (free, wide).
    static let containers: [(name: String, options: [String], firstBox: String?)] = [
        ("clip.ts", ["-c:v", "libx264", "-f", "mpegts"], nil),
        ("clip.m2ts", ["-c:v", "libx264", "-f", "mpegts", "-mpegts_m2ts_mode", "1"], nil),
        ("clip.264", ["-c:v", "libx264", "-f", "h264"], nil),
        ("clip.hevc", ["-c:v", "libx265", "-x265-params", "log-level=error", "-f", "hevc"], nil),
        ("clip.ivf", ["-c:v", "libvpx", "-f", "ivf"], nil),
        ("clip.nut", ["-c:v", "ffv1", "-f", "nut"], nil),
        ("clip.wmv", ["-c:v", "wmv2", "-f", "asf"], nil),
        ("clip.y4m", ["-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe"], nil),
        ("free.mp4", ["-c:v", "libx264", "-f", "mp4"], "free"),
        ("wide.mov", ["-c:v", "libx264", "-f", "mov"], "wide"),
    ]
    /// A name that would clear the screen and set the window title if printed as it is.
    static let hostileName = "\u{1B}[2J\u{1B}]0;owned\u{07}clip.ts"

    static let texts: [(name: String, data: [UInt8])] = [
        ("s0.txt", Array("a striped face\n".utf8)),
        ("s0.json", Array(#"{"caption": "a striped face", "url": "https://example.org/0.jpg"}"#.utf8)),
        ("s0.cls", Array("3".utf8)),
        ("labels.csv", Array("key,label\ns0,3\n".utf8)),
        ("empty.txt", []),
    ]

    /// Each container's bytes, checked to be a video of 5 frames ffprobe decodes.
    static func clips(in folder: URL) throws -> [(name: String, data: [UInt8])] {
        try containers.map { container in
            let file = folder.appendingPathComponent("made-" + container.name)
            try VideoClips.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-frames:v", "5"] + container.options, output: file)
            var data = [UInt8](try Data(contentsOf: file))
            if let firstBox = container.firstBox {
                // ftyp, then an 8-byte free (MP4) or wide (MOV) box: swapped, every offset stays where it was.
                let ftyp = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
                #expect(Array(data[ftyp..<ftyp + 8]) == PlantedMembers.be32(8) + PlantedMembers.ascii(firstBox))
                data = Array(data[ftyp..<ftyp + 8] + data[..<ftyp] + data[(ftyp + 8)...])
                try Data(data).write(to: file)
            }
            #expect(try decodedFrames(file) == "5", "\(container.name) is a video ffprobe decodes")
            return (container.name, data)
        }
    }

    /// The number of frames ffprobe decodes from `file`'s first video stream.
    static func decodedFrames(_ file: URL) throws -> String {
        try VideoProbe.run(file, entries: "stream=nb_read_frames", selectStreams: "v:0").first?
            .replacingOccurrences(of: "nb_read_frames=", with: "") ?? ""
    }

    /// The member names `tar -tf` lists.
    static func listing(_ tar: URL) throws -> [String] {
        String(decoding: try VideoProbe.output(of: "/usr/bin/tar", ["-tf", tar.path]), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    struct Planted {
        let folder: URL
        let input: URL
        let members: [(name: String, data: [UInt8])]
        /// The video members, in order (the hostile name last).
        let videos: [String]
    }

    static func plant() throws -> Planted {
        let folder = try temporaryFolder()
        let clips = try clips(in: folder)
        let recognised = folder.appendingPathComponent("made-clip.mp4")
        try VideoClips.movingSquare(recognised, frames: 5)
        let jpeg = try RedactedShardsTests.jpeg(RedactedShardsTests.picture(shade: 60))
        var members: [(name: String, data: [UInt8])] = [("s0.jpg", jpeg)]
        for (text, clip) in zip(texts, clips) { members += [text, clip] }
        members += clips.dropFirst(texts.count)
        members += [("clip.mp4", [UInt8](try Data(contentsOf: recognised))), (hostileName, clips[0].data)]
        let input = folder.appendingPathComponent("data-000.tar")
        let writer = try TarWriter(path: input.path)
        for member in members { try writer.add(path: member.name, data: member.data) }
        try writer.finish()
        return Planted(folder: folder, input: input, members: members,
                       videos: clips.map(\.name) + ["clip.mp4", hostileName])
    }

    func run(_ planted: Planted, _ flags: [String], out: String) throws -> (status: Int32, stderr: String, shard: URL, runJSON: [String: Any]) {
        let outURL = planted.folder.appendingPathComponent(out)
        let result = try FacepipeProcess.run(["run", "anonymize", planted.input.path, "--out", outURL.path, "--models", Fixtures.model("").path,
                                              "--workers", "2", "--quiet", "--redacted-shards"] + flags, in: planted.folder)
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: outURL.appendingPathComponent("run.json"))) as? [String: Any]
        return (result.status, result.stderr, outURL.appendingPathComponent("redacted/data-000.tar"), record ?? [:])
    }

    @Test func videoInContainersFacepipeDoesNotReadIsLeftOutAndNamed() throws {
        let planted = try Self.plant()
        defer { try? FileManager.default.removeItem(at: planted.folder) }
        let (status, stderr, shard, record) = try run(planted, [], out: "out")
        #expect(status == 0, "\(stderr)")
        #expect(try Self.listing(shard) == ["s0.jpg"] + Self.texts.map(\.name), "the redacted image and the texts only")
        let original = Dictionary(planted.members.map { ($0.name, $0.data) }) { first, _ in first }
        for member in try RedactedShardsTests.read(shard.path) where member.name != "s0.jpg" {
            #expect(member.data == original[member.name], "\(member.name) byte for byte")
        }
        let summary = try #require(stderr.split(separator: "\n").first { $0.hasPrefix("facepipe: anonymize: ") }, "\(stderr)")
        #expect(summary.contains("\(planted.videos.count) members left out of the redacted shards ("), "\(summary)")
        for name in planted.videos.dropLast() {
            #expect(summary.contains("data-000.tar/\(name)"), "\(name) named in the summary: \(summary)")
        }
        #expect(summary.contains(#"data-000.tar/\u{1B}[2J\u{1B}]0;owned\u{7}clip.ts"#), "the hostile name escaped: \(summary)")
        #expect(!stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "no control character reaches the terminal")
        let skipped = try #require(((record["summary"] as? [String: Any])?["skipped"] as? [String: Any])?["first"] as? [[String: Any]])
        #expect(skipped.compactMap { $0["name"] as? String } == planted.videos, "run.json lists each, in order")
        for entry in skipped {
            #expect((entry["reason"] as? String)?.hasPrefix("left out of the redacted shard: ") == true, "\(entry)")
        }
    }

    @Test func copyUnknownCopiesThemByteForByteButNoVideoFacepipeReads() throws {
        let planted = try Self.plant()
        defer { try? FileManager.default.removeItem(at: planted.folder) }
        let (status, stderr, shard, _) = try run(planted, ["--copy-unknown"], out: "out-copy")
        #expect(status == 0, "\(stderr)")
        let expected = planted.members.map(\.name).filter { $0 != "clip.mp4" }
        let members = try RedactedShardsTests.read(shard.path)
        #expect(members.map(\.name) == expected, "every member but the video facepipe reads (its frames are pictures)")
        let original = Dictionary(planted.members.map { ($0.name, $0.data) }) { first, _ in first }
        for member in members where member.name != "s0.jpg" {
            #expect(member.data == original[member.name], "\(member.name) byte for byte")
        }
        let summary = try #require(stderr.split(separator: "\n").first { $0.hasPrefix("facepipe: anonymize: ") }, "\(stderr)")
        #expect(summary.contains("1 member left out of the redacted shards (data-000.tar/clip.mp4; why in skipped.csv)"), "\(summary)")
    }
}

/// The summary line names the members left out of the redacted shards,
/// escaped for the terminal, the first 20 of them.
struct RedactedShardsSummaryLineTests {
    @Test func theLineNamesWhatWasLeftOut() {
        var summary = RunSummary()
        let reason = RedactedTarMember.leftOutPrefix + "binary data (not UTF-8 text), not known to carry no picture (--copy-unknown copies it)"
        for skipped: RunSummary.SkippedRecord in [
            .init(archive: "a.tar", index: 0, name: "dir/", reason: "directory: not a regular file"),
            .init(archive: "a.tar", index: 1, name: "./clip.m2ts", reason: reason),
            .init(archive: "a.tar", index: 2, name: "\u{1B}]52;c;b3duZWQ=\u{07}x.ivf", reason: reason),
        ] { summary.addSkipped(skipped) }
        #expect(summary.line.contains(#"2 members left out of the redacted shards (a.tar/clip.m2ts a.tar/\u{1B}]52;c;b3duZWQ=\u{7}x.ivf; why in skipped.csv)"#),
                "\(summary.line)")
        for k in 0..<30 { summary.addSkipped(.init(archive: "b.tar", index: k, name: "\(k).npy", reason: reason)) }
        #expect(summary.line.contains("32 members left out of the redacted shards (a.tar/clip.m2ts "), "\(summary.line)")
        #expect(summary.line.contains(" b.tar/17.npy and 12 more; why in skipped.csv)") && !summary.line.contains("b.tar/18.npy"), "\(summary.line)")
    }
}
