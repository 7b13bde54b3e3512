#if canImport(Glibc)
import ArchiveIO
import Crypto
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import Pipelines
import Testing
import _TestSupport
#endif

/// Inputs by kind: folders, single images, archives, streams, and the
/// command-line INPUT resolution that tells them apart.
@Suite struct RunInputTests {
    let jpeg: [UInt8]
    let png: [UInt8]

    init() throws {
        jpeg = try Fixtures.bytes(Fixtures.url("codecs/photo-baseline.jpg"))
        png = try Fixtures.bytes(Fixtures.url("codecs/photo-reference.png"))
    }

    @Test func aFolderGivesTheRowsAndImagesOfATarOfItsImages() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("in/photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("a.png"))
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        try Data(jpeg).write(to: photos.appendingPathComponent("sub/b.jpg"))
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("sub/link.png").path, withDestinationPath: "../a.png")
        try Data(png).write(to: photos.appendingPathComponent("sub/deeper/c.png"))
        // The same images, in the folder's order, in an archive also named `photos`.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tar"), withIntermediateDirectories: true)
        let tarPath = root.appendingPathComponent("tar/photos").path
        let writer = try TarWriter(path: tarPath)
        try writer.add(path: "a.png", data: png)
        try writer.add(path: "sub/b.jpg", data: jpeg)
        try writer.add(path: "sub/deeper/c.png", data: png)
        try writer.finish()

        let fromFolder = root.appendingPathComponent("out-folder"), fromTar = root.appendingPathComponent("out-tar")
        let folderInput = try RunInput.fromArgument(photos.path + "/")
        #expect(folderInput.name == "photos")
        let folderSummary = try await run(Pipelines.uprightPNG, [folderInput], out: fromFolder)
        let tarSummary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(tarPath)], out: fromTar)

        #expect(folderSummary.skipped.first.map(\.name) == ["notes.txt", "sub/link.png"])
        #expect(folderSummary.skipped.first.map(\.reason) == ["file: not a JPEG or PNG image", "symlink: not followed"])
        #expect(tarSummary.skipped.isEmpty)
        let folderFiles = try outputFiles(fromFolder), tarFiles = try outputFiles(fromTar)
        #expect(folderFiles.keys.sorted() == ["images/photos/a.png.png", "images/photos/sub/b.jpg.png",
                                              "images/photos/sub/deeper/c.png.png", "manifest.csv", "report.html", "skipped.csv"])
        // The reports differ: the folder's lists its skipped files.
        let images = { (files: [String: Data]) in files.filter { $0.key.hasPrefix("images/") } }
        #expect(images(folderFiles) == images(tarFiles))
        // Rows are equal but for the index: the folder counts its skipped files.
        let withoutIndex = { (rows: [[String]]) in rows.map { row in row.enumerated().filter { $0.offset != 2 }.map(\.element) } }
        #expect(withoutIndex(try manifestRows(fromFolder)) == withoutIndex(try manifestRows(fromTar)))
        #expect(try manifestRows(fromFolder).map { $0[2] } == ["0", "2", "3"])

        let folderDigest = try inputDigest(fromFolder)
        let files: [(String, [UInt8])] = [("a.png", png), ("notes.txt", Array("not an image".utf8)),
                                          ("sub/b.jpg", jpeg), ("sub/deeper/c.png", png)]
        var listing: [UInt8] = []
        for (path, bytes) in files {
            listing += Array(path.utf8) + [0] + Array(SHA256.hash(data: bytes).hex.utf8) + [0x0A]
        }
        #expect(folderDigest.sha256 == SHA256.hash(data: listing).hex)
        #expect(folderDigest.bytes == 2 * png.count + jpeg.count + 12)
        let tarBytes = try Fixtures.bytes(URL(fileURLWithPath: tarPath))
        #expect(try inputDigest(fromTar).sha256 == SHA256.hash(data: tarBytes).hex)
        #expect(try inputDigest(fromTar).bytes == tarBytes.count)
    }

    @Test func namesStoredWithDotSlashAreOutputWithoutIt() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let tarPath = root.appendingPathComponent("photos.tar").path
        let writer = try TarWriter(path: tarPath)
        try writer.addDirectory(path: "./")
        try writer.addDirectory(path: "./a/")
        try writer.add(path: "./a/b.png", data: png)
        try writer.add(path: "././c.jpg", data: jpeg)
        try writer.finish()
        let out = root.appendingPathComponent("out")
        let summary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(tarPath)], out: out)
        #expect(summary.skipped.isEmpty)
        let rows = try manifestRows(out)
        #expect(rows.map { $0[1] } == ["./a/b.png", "././c.jpg"])
        #expect(try outputFiles(out).keys.sorted() == ["images/photos.tar/a/b.png.png", "images/photos.tar/c.jpg.png", "manifest.csv", "report.html", "skipped.csv"])
    }

    @Test func aTarStreamOnAPipeIsReadOnceAndHashed() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let tarPath = root.appendingPathComponent("photos.tar").path
        let writer = try TarWriter(path: tarPath, compression: .gzip)
        try writer.add(path: "a.png", data: png)
        try writer.add(path: "b.jpg", data: jpeg)
        try writer.finish()
        let bytes = try Fixtures.bytes(URL(fileURLWithPath: tarPath))

        let pipe = Pipe()
        let feeder = Thread {
            pipe.fileHandleForWriting.write(Data(bytes))
            try? pipe.fileHandleForWriting.close()
        }
        feeder.start()
        let out = root.appendingPathComponent("out")
        let input = RunInput.archiveStream(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin", path: "-")
        let summary = try await run(Pipelines.uprightPNG, [input], out: out)
        try pipe.fileHandleForReading.close()
        #expect(summary.entries == 2)
        #expect(try manifestRows(out).map { [$0[0], $0[1], $0[3]] } == [["stdin", "a.png", "ok"], ["stdin", "b.jpg", "ok"]])
        let digest = try inputDigest(out)
        #expect(digest.sha256 == SHA256.hash(data: bytes).hex)
        #expect(digest.bytes == bytes.count)
    }

    @Test func inputsAreToldApartByWhatTheyAre() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let image = root.appendingPathComponent("in/photo.tar")  // a JPEG, whatever its name
        try FileManager.default.createDirectory(at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(jpeg).write(to: image)
        let input = try RunInput.fromArgument(image.path)
        #expect(input.name == "photo.tar" && input.path == image.path)
        let out = root.appendingPathComponent("out")
        let summary = try await run(Pipelines.uprightPNG, [input], out: out)
        #expect(summary.entries == 1 && summary.exitStatus == .ok)
        #expect(try manifestRows(out).map { [$0[0], $0[1], $0[2], $0[3]] } == [["photo.tar", "photo.tar", "0", "ok"]])
        #expect(try inputDigest(out).sha256 == SHA256.hash(data: jpeg).hex)

        #expect(try RunInput.fromArgument("-").name == "stdin")
        #expect(try RunInput.fromArgument("-").path == "-")
        #expect(try RunInput.fromArgument(root.path).name == root.lastPathComponent)
    }

    @Test func anInputThatCannotBeOpenedIsReportedWithTheOSReason() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/photos.tar"
        let error = #expect(throws: RunInputError.self) { try RunInput.fromArgument(missing) }
        #expect(error?.description == "cannot read input \(missing): No such file or directory")
    }

    struct DetectFileCase: Sendable, CustomStringConvertible {
        let name: String
        /// Makes the file in a folder; its path.
        let make: @Sendable (URL) throws -> String
        let reason: String
        var description: String { name }
    }

    /// `facepipe detect FILE` on something that is not an image or a video
    /// (a FIFO, `/dev/zero`, `/proc/self/environ`, a text) gives that file's
    /// entry an error saying what it is: never a wait, never "Permission
    /// denied", never the file's first bytes.
    @Test(arguments: [
        DetectFileCase(name: "a FIFO", make: { folder in
            let path = folder.appendingPathComponent("fifo").path
            guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return path
        }, reason: "read: not a regular file but a FIFO: give an image or video file"),
        DetectFileCase(name: "/dev/zero", make: { _ in "/dev/zero" },
                       reason: "read: not a regular file but a character device: give an image or video file"),
        DetectFileCase(name: "a folder", make: { folder in folder.path },
                       reason: "read: not a regular file but a folder: give an image or video file"),
        DetectFileCase(name: "/proc/self/environ", make: { _ in "/proc/self/environ" },
                       reason: "read: not a JPEG or PNG image nor a video (MP4, MOV, MKV, WebM), by its first bytes"),
        DetectFileCase(name: "a text", make: { folder in
            let path = folder.appendingPathComponent("secret.jpg")
            try Data("PASSWORD=hunter2\n".utf8).write(to: path)
            return path.path
        }, reason: "read: not a JPEG or PNG image nor a video (MP4, MOV, MKV, WebM), by its first bytes"),
        DetectFileCase(name: "a GIF", make: { folder in
            let path = folder.appendingPathComponent("a.gif")
            try Data("GIF89a\u{1}\0\u{1}\0".utf8).write(to: path)
            return path.path
        }, reason: "read: not a JPEG or PNG image nor a video (MP4, MOV, MKV, WebM), by its first bytes (it looks like GIF, which facepipe does not decode)"),
    ])
    func detectSaysWhatAFileIsWithoutQuotingIt(_ example: DetectFileCase) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try example.make(folder)
        let lines = Pipe()
        let summary = try await PipelineRunner.runJSONLines(try Pipelines.uprightPNG.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models")), inputs: [RunInput.imageOrVideoFile(path: path)],
                                                            output: lines.fileHandleForWriting, workers: 1)
        try lines.fileHandleForWriting.close()
        let text = String(decoding: lines.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String], "\(text)")
        #expect(line == ["file": path, "error": example.reason])
        #expect(summary.exitStatus == .someEntriesFailed)
    }

    /// inputs[0] of run.json.
    private func inputDigest(_ out: URL) throws -> (sha256: String?, bytes: Int?) {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let input = (json?["inputs"] as? [[String: Any]])?.first
        return (input?["sha256"] as? String, input?["bytes"] as? Int)
    }
}

private extension Digest {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
