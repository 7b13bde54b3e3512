import Foundation
import Pipeline
import Testing

/// Links planted inside the output folder never carry a write outside it.
@Suite struct OutputLinkTests {
    /// Every file below `folder`, by relative path.
    static func listing(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(arguments: ["images", "images/a.tar", "faces"])
    func aLinkedFolderIsRefusedAndNothingIsWrittenThrough(_ planted: String) async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out"), elsewhere = parent.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let link = out.appendingPathComponent(planted)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)

        await #expect(throws: PipelineError.self) {
            _ = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 6))], out: out)
        }
        #expect(Self.listing(elsewhere).isEmpty, "nothing written through \(planted)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == elsewhere.path, "the link itself is left alone")
    }

    @Test func aLinkAtAFileNameIsReplacedNotWrittenThrough() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out"), target = parent.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: target)
        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 2))], out: out)
        let written = try #require(Self.listing(out).first { $0.hasPrefix("images/a.tar/") && $0.hasSuffix(".ppm") })
        let path = out.appendingPathComponent(written)
        try FileManager.default.removeItem(at: path)
        try FileManager.default.createSymbolicLink(at: path, withDestinationURL: target)

        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 2))], out: out,
                          recompute: .everything)
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        let attributes = try FileManager.default.attributesOfItem(atPath: path.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link was replaced by the image")
    }
}
