import FacepipeCLI
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import Pipelines
import Testing

/// The command line as a library: a tool's own pipelines and stages beside
/// the built-in ones, through `FacepipeCommand.run` (what `main(adding:)`
/// runs), in this process.
struct FacepipeCommandTests {
    /// A folder holding `photo.png` (64×48, grey).
    private func scene() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        try Data(png).write(to: folder.appendingPathComponent("photo.png"))
        return folder
    }

    /// `column` of the manifest's face rows.
    private func manifestColumn(_ column: String, in out: URL) throws -> [String] {
        let lines = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
            .split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let index = try #require(lines.first?.firstIndex(of: column))
        return lines.dropFirst().map { $0[index] }
    }

    @Test func addedPipelineIsListedDescribedAndRun() async throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.png").path
        #expect(await FacepipeCommand.run(["pipelines"], adding: [borderTest]) == 0)
        #expect(await FacepipeCommand.run(["describe", "border-test"], adding: [borderTest]) == 0)
        #expect(await FacepipeCommand.run(["describe", "border-test"]) == 2, "not added: unknown")

        // The whole picture is the face: it touches the border.
        let out = folder.appendingPathComponent("out")
        #expect(await FacepipeCommand.run(["run", "border-test", photo, "--out", out.path, "--quiet"], adding: [borderTest]) == 0)
        #expect(try manifestColumn("status", in: out) == ["rejected"])
        #expect(try manifestColumn("rejection", in: out) == ["within 0.0 px of the border"])
        #expect(await FacepipeCommand.run(["report", out.path], adding: [borderTest]) == 0)

        // --set reaches both outside stages: 10 px in is clear of a 0 px margin, not of a 12 px one.
        let inset = folder.appendingPathComponent("inset")
        #expect(await FacepipeCommand.run(["run", "--pipeline", "border-test", photo, "--out", inset.path, "--quiet",
                                           "--set", "whole-picture-face.inset=10"], adding: [borderTest]) == 0)
        #expect(try manifestColumn("status", in: inset) == ["ok"])
        #expect(try manifestColumn("w", in: inset) == ["44.00"])
        let margin = folder.appendingPathComponent("margin")
        #expect(await FacepipeCommand.run(["run", "--pipeline", "border-test", photo, "--out", margin.path, "--quiet",
                                           "--set", "whole-picture-face.inset=10", "--set", "reject-border-faces.margin=12"],
                                          adding: [borderTest]) == 0)
        #expect(try manifestColumn("rejection", in: margin) == ["within 12.0 px of the border"])
        #expect(await FacepipeCommand.run(["run", "--pipeline", "border-test", photo, "--out", margin.path, "--quiet", "--overwrite",
                                           "--set", "reject-border-faces.nope=1"], adding: [borderTest]) == 2)
    }

    @Test func builtInPipelinesAreThereBeside() async throws {
        let registry = try PipelineRegistry.builtIn.adding([borderTest])
        #expect(registry.names == PipelineRegistry.builtIn.names + ["border-test"])
        #expect(registry.names.first == "faces", "the default stays facepipe's")
    }

    @Test func nameOfABuiltInPipelineIsRefused() async throws {
        let faces = Pipeline("faces") { Decode(); Orient(); PassPixels(); WriteOutputs(faceJSON: false) }
        #expect(throws: PipelineRegistryError.nameTaken("faces", taken: PipelineRegistry.builtIn.names)) {
            _ = try PipelineRegistry.builtIn.adding([faces])
        }
        #expect(await FacepipeCommand.run(["pipelines"], adding: [faces]) == 2)
    }

    @Test func twoAddedPipelinesWithOneNameAreRefused() async throws {
        #expect(throws: PipelineRegistryError.duplicateName("border-test")) {
            _ = try PipelineRegistry.builtIn.adding([borderTest, borderTest])
        }
        #expect(await FacepipeCommand.run(["pipelines"], adding: [borderTest, borderTest]) == 2)
    }
}
