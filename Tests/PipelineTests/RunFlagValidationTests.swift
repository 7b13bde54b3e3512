import Foundation
import Pipeline
import PipelineRunning
import Testing

/// The run flags are checked in one place (``RunConfiguration/validateFlags(workers:resume:overwrite:outputTar:redactedShards:copyUnknown:)``):
/// `facepipe run` refuses them with the message the library gives, before anything is read or written.
@Suite(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"))
struct RunFlagValidationTests {
    static let cases: [(flags: [String], configuration: RunConfiguration)] = [
        (["--workers", "0"], RunConfiguration(outputDirectory: URL(fileURLWithPath: "out"), workers: 0)),
        (["--resume", "--redacted-shards"], RunConfiguration(outputDirectory: URL(fileURLWithPath: "out"), workers: 1, resume: true, redactedShards: true)),
        (["--copy-unknown"], RunConfiguration(outputDirectory: URL(fileURLWithPath: "out"), workers: 1, copyUnknown: true)),
    ]

    @Test(arguments: 0..<cases.count)
    func theCommandAndTheLibrarySayTheSame(index: Int) throws {
        let (flags, configuration) = Self.cases[index]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let library = try #require(throws: PipelineError.self) {
            try RunConfiguration.validateFlags(workers: configuration.workers, resume: configuration.resume,
                                               overwrite: configuration.overwrite, outputTar: configuration.outputTar,
                                               redactedShards: configuration.redactedShards, copyUnknown: configuration.copyUnknown)
        }
        let result = try FacepipeProcess.run(["run", "anonymize", folder.appendingPathComponent("in.tar").path, "--out", out.path] + flags, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(library.description), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// `--every` and `--fps` out of range or together: exit 2 with `FrameSelection`'s message, nothing created.
    @Test(arguments: [(["--every", "0"], FrameSelection.every(0) as FrameSelection?), (["--fps", "0"], .framesPerSecond(0)),
                      (["--fps", "nan"], .framesPerSecond(.nan)), (["--every", "2", "--fps", "3"], nil)])
    func frameSelectionFlags(flags: [String], selection: FrameSelection?) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let library = try #require(throws: PipelineError.self) {
            if let selection { try selection.validate() } else { _ = try FrameSelection.fromFlags(every: 2, fps: 3) }
        }
        let result = try FacepipeProcess.run(["run", "faces", folder.appendingPathComponent("clip.mp4").path, "--out", out.path] + flags, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains(library.description), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
