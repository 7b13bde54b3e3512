import Foundation
import Pipeline
import RunFolders
import Testing

/// Issue 38 row 3: a file error names the path and gives the OS's reason
/// (strerror's words), never Foundation's "The operation could not be
/// completed" (``OSReason``, ``FileFailure``).
struct FileErrorMessageTests {
    @Test func foundationFileErrorsGiveTheOSReason() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("nope/x.json").path
        let read = try #require(throws: FileFailure.self) { try FileFailure.at(missing) { try Data(contentsOf: URL(fileURLWithPath: missing)) } }
        #expect(read.description == missing + ": No such file or directory")
        // A folder under a regular file: the OS says "Not a directory"; the message names the path the OS refused.
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let under = file.appendingPathComponent("sub/deeper").path
        do {
            try FileManager.default.createDirectory(atPath: under, withIntermediateDirectories: true)
            Issue.record("created a folder under a file")
        } catch {
            let reason = OSReason(error, about: under).description
            #expect(reason.hasSuffix("Not a directory"), "\(reason)")
            #expect(!reason.contains("operation could not be completed"), "\(reason)")
        }
        #expect(OSReason(POSIXError(.EACCES)).description == "Permission denied")
        #expect(OSReason(errno: ENOENT).description == "No such file or directory")
    }

    /// `export coco myphotos` where myphotos is a folder of photos, not a run;
    /// `export … --out` and `run … --out` under a regular file.
    @Test(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"),
          arguments: [
            (["export", "coco", "myphotos", "--out", "coco"], "cannot read the run's myphotos/run.json: No such file or directory"),
            (["export", "coco", "missing", "--out", "coco"], "cannot read the run's missing/run.json: No such file or directory"),
            (["run", "faces", "myphotos", "--out", "file/out"], "file/out: cannot create:"),
          ])
    func commandsNameThePathAndTheOSReason(_ arguments: [String], _ expected: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("myphotos"), withIntermediateDirectories: true)
        try Data(try StrangerRun.png(fill: (1, 2, 3))).write(to: folder.appendingPathComponent("myphotos/a.png"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("file"))
        let result = try FacepipeProcess.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments): exit \(result.status), \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("could not be completed") && !result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
        if arguments[0] == "run" { #expect(result.stderr.contains("Not a directory"), "\(result.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("coco").path))
    }
}
