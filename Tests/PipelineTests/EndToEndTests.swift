import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders
import Testing
import _TestSupport

/// Real archives through real decoding and PNG encoding, with the bad inputs
/// users meet: broken images, a PNG bomb, hostile names, links, a truncated
/// tar, a missing archive.
@Suite struct EndToEndTests {
    /// Decode → Orient → red-square "detector" → filter → annotate → PNG.
    static let pipeline = Pipeline("e2e") {
        Decode(maxPixels: 4_000_000)
        Orient()
        DetectRedSquares()
        FilterConfidence(atLeast: 0.5)
        Annotate([.boxes], thickness: 1)
        WriteOutputs()
    }

    static func png(width: Int = 32, height: Int = 24, square: (x: Int, y: Int, side: Int)) throws -> [UInt8] {
        var image = RGBImage(width: width, height: height, fill: (20, 60, 100))
        for y in square.y..<(square.y + square.side) {
            for x in square.x..<(square.x + square.side) {
                let i = (y * width + x) * 3
                image.pixels[i] = 255; image.pixels[i + 1] = 0; image.pixels[i + 2] = 0
            }
        }
        return try PNGEncoder.encode(image)
    }

    /// A PNG whose header declares 100 000 × 100 000 pixels.
    static func pngBomb() -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let body = Array("IHDR".utf8) + be32(100_000) + be32(100_000) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(crc32(body))
            + be32(0) + Array("IEND".utf8) + be32(crc32(Array("IEND".utf8)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func badInputsGetRowsAndTheRestIsProcessed() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let good = try Self.png(square: (x: 4, y: 5, side: 6))
        let archive = parent.appendingPathComponent("photos.tar").path
        let writer = try TarWriter(path: archive)
        try writer.add(path: "ok.png", data: good)
        try writer.add(path: "truncated.png", data: Array(good.prefix(good.count / 2)))
        try writer.add(path: "corrupt.jpg", data: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 300))
        try writer.add(path: "bomb.png", data: Self.pngBomb())
        try writer.add(path: "../escape.png", data: good)
        try writer.add(path: "/abs.png", data: good)
        try writer.add(path: "a/../../b.png", data: good)
        try writer.add(path: "dup.png", data: good)
        try writer.add(path: "dup.png", data: try Self.png(square: (x: 10, y: 10, side: 8)))
        try writer.addDirectory(path: "folder")
        try writer.addSymbolicLink(path: "link.png", target: "../../etc/passwd")
        try writer.add(path: "notes.txt", data: Array("hello".utf8))
        try writer.finish()

        // A second archive cut in the middle of its second entry.
        let truncatedPath = parent.appendingPathComponent("cut.tar").path
        let second = try TarWriter(path: truncatedPath)
        try second.add(path: "first.png", data: good)
        try second.add(path: "second.png", data: [UInt8](repeating: 1, count: 40_000))
        try second.finish()
        let whole = try Data(contentsOf: URL(fileURLWithPath: truncatedPath))
        try whole.prefix(512 + 1024 + 512 + 10_000).write(to: URL(fileURLWithPath: truncatedPath))

        let out = parent.appendingPathComponent("out")
        let plan = try Self.pipeline.compile(modelsDirectory: parent)
        let summary = try await PipelineRunner.run(plan, inputs: [
            .archive(path: archive), .archive(path: parent.appendingPathComponent("missing.tar").path), .archive(path: truncatedPath),
        ], configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")

        let rows = try manifestRows(out)
        func row(_ entry: String, index: Int? = nil) -> [String]? {
            rows.first { $0[1] == entry && (index == nil || $0[2] == String(index!)) }
        }
        let status = Manifest.columns.firstIndex(of: "status")!, error = status + 1
        #expect(row("ok.png")?[status] == "ok")
        #expect(row("ok.png")?[Manifest.columns.firstIndex(of: "x")!] == "4.00")
        #expect(row("truncated.png")?[status] == "error")
        #expect(row("truncated.png")?[error].hasPrefix("decode: ") == true)
        #expect(row("corrupt.jpg")?[status] == "error")
        #expect(row("bomb.png")?[status] == "error")
        #expect(row("notes.txt")?[status] == "error")
        #expect(row("../escape.png")?[status] == "ok")
        #expect(row("dup.png", index: 7)?[status] == "ok")
        #expect(row("dup.png", index: 8)?[status] == "ok")
        let json = Manifest.columns.firstIndex(of: "faces_json")!
        #expect(row("dup.png", index: 7)?[json] != row("dup.png", index: 8)?[json], "duplicates get distinct outputs")
        let archiveErrors = rows.filter { $0[1].isEmpty && $0[status] == "error" }
        #expect(archiveErrors.map { $0[0] } == ["missing.tar", "cut.tar"])
        #expect(row("first.png")?[status] == "ok", "entries before the damage are kept")
        #expect(summary.skipped.first.map(\.name).sorted() == ["link.png"], "directory headers are not listed")
        #expect(summary.exitStatus == .someEntriesFailed)

        // Nothing outside DIR; every output decodes and shows the box.
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == ["cut.tar", "out", "photos.tar"])
        let output = try #require(row("ok.png")?[Manifest.columns.firstIndex(of: "output")!])
        let decoded = try ImageDecoder.decode(Array(try Data(contentsOf: out.appendingPathComponent(output))))
        #expect(decoded.image.width == 32 && decoded.image.height == 24)
        let corner = (5 * 32 + 4) * 3
        let pixel = Array(decoded.image.pixels[corner..<corner + 3])
        #expect(pixel[1] > 80 && pixel[0] < 255, "box drawn (anti-aliased, green) over the square's corner: \(pixel)")
    }

    @Test(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
    func namedPipelinesCompileAgainstTheVerifiedModels() throws {
        let models = Fixtures.model("")
        for pipeline in PipelineRegistry.builtIn.all {
            let plan = try pipeline.compile(modelsDirectory: models)
            // Exactly the models the stages name are loaded.
            let named = Set(pipeline.stages.flatMap(\.allModels))
            #expect(Set(plan.faceModels.models) == named, "\(pipeline.name)")
            #expect(!named.isEmpty || pipeline.name == "upright-png", "\(pipeline.name) uses models")
        }
        #expect(throws: PipelineError.unknownPipeline(name: "nope", available: PipelineRegistry.builtIn.names)) {
            _ = try PipelineRegistry.builtIn.named("nope")
        }
        #expect(PipelineRegistry.builtIn.names == ["faces", "training-annotations", "passport", "fast-boxes", "whole-frame", "upright-png",
                                           "anonymize", "face-crops", "detect"])
    }
}
