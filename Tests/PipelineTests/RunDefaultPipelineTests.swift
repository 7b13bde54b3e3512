import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport

/// `facepipe run INPUT… --out DIR` runs the default pipeline; `--pipeline`
/// picks another; the older `facepipe run NAME INPUT…` still works; a first
/// argument that is both a pipeline's name and a path here is refused.
/// Through the built binary, in a folder of the test's own (the current
/// folder decides what "a path here" is).
@Suite(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
struct RunDefaultPipelineTests {
    /// A folder holding `photo.png` (a 64×48 grey picture), where the binary runs.
    private func scene() throws -> URL {
        let folder = try temporaryFolder()
        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        try Data(png).write(to: folder.appendingPathComponent("photo.png"))
        return folder
    }

    /// The summary line names the pipeline that ran: `facepipe: NAME: 1 entry, …`.
    private func ran(_ pipeline: String, _ stderr: String) -> Bool {
        stderr.contains("facepipe: \(pipeline): 1 entry,")
    }

    @Test(.enabled(if: Fixtures.modelsAvailable, "needs the models"))
    func inputsAloneRunTheDefaultPipeline() throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stderr) = try FacepipeProcess.run(["run", "photo.png", "--out", "out", "--quiet"], in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(ran("faces", stderr), "\(stderr)")
        let runJSON = try String(contentsOf: folder.appendingPathComponent("out/run.json"), encoding: .utf8)
        #expect(runJSON.contains("\"faces\""), "run.json names the pipeline")
    }

    @Test func pipelineOptionPicksThePipeline() throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stderr) = try FacepipeProcess.run(["run", "--pipeline", "upright-png", "photo.png", "--out", "out"], in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(ran("upright-png", stderr), "\(stderr)")
    }

    @Test func leadingPipelineNameStillWorks() throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stderr) = try FacepipeProcess.run(["run", "upright-png", "photo.png", "--out", "out"], in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(ran("upright-png", stderr), "\(stderr)")
    }

    /// A folder called `upright-png` beside the photo: `run upright-png photo.png` could
    /// mean either; nothing runs and the message names both readings.
    @Test(arguments: ["folder", "file", "dangling link"])
    func firstArgumentThatIsBothIsRefused(kind: String) throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = folder.appendingPathComponent("upright-png")
        switch kind {
        case "folder": try FileManager.default.createDirectory(at: name, withIntermediateDirectories: false)
        case "file": try Data("not a picture".utf8).write(to: name)
        default: try FileManager.default.createSymbolicLink(atPath: name.path, withDestinationPath: "nowhere")
        }
        let (status, stderr) = try FacepipeProcess.run(["run", "upright-png", "photo.png", "--out", "out"], in: folder)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains("upright-png is both a pipeline and a file or folder here"), "\(stderr)")
        #expect(stderr.contains("--pipeline upright-png") && stderr.contains("./upright-png"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "nothing written")
    }

    /// With `--pipeline`, a path that shares a pipeline's name is an input.
    @Test func pipelineOptionReadsANamesakeFolderAsInput() throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let namesake = folder.appendingPathComponent("anonymize")
        try FileManager.default.createDirectory(at: namesake, withIntermediateDirectories: false)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("photo.png"), to: namesake.appendingPathComponent("photo.png"))
        let (status, stderr) = try FacepipeProcess.run(["run", "--pipeline", "upright-png", "anonymize", "--out", "out"], in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(ran("upright-png", stderr), "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/images/anonymize/photo.png.png").path))
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        Refusal(arguments: ["--pipeline", "faces", "upright-png", "photo.png"],
                message: "two pipelines given: --pipeline faces and upright-png"),
        Refusal(arguments: ["upright-png"], message: "give at least one input to run upright-png on"),
        Refusal(arguments: ["uprigth-png", "photo.png"], message: "unknown pipeline uprigth-png (did you mean upright-png?), and no file or folder here is called uprigth-png (pipelines: faces,"),
        Refusal(arguments: ["--pipeline", "nope", "photo.png"], message: "unknown pipeline nope; available: faces,"),
    ])
    func unclearArgumentsAreRefused(_ refusal: Refusal) throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stderr) = try FacepipeProcess.run(["run"] + refusal.arguments + ["--out", "out"], in: folder)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains(refusal.message), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "nothing written")
    }

    @Test func helpNamesTheDefaultAndTheOption() throws {
        let folder = try scene()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ChildProcess.run(FacepipeProcess.binary.path, ["run", "--help"])
        let help = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0)
        #expect(help.contains("--pipeline <NAME>"), "\(help)")
        #expect(help.contains("Runs faces, the default pipeline"), "\(help)")
        // The workers' default is said once, not also as this machine's number.
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(default: this machine's core count)") && !flat.contains("core count). (default:"), "\(help)")
        #expect(flat.contains("crops/, redacted/"), "--overwrite names every folder it removes: \(help)")
    }
}
