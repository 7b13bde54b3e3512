import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing

@Suite struct OutputFolderRuleTests {
    typealias Identity = OutputFolderRule.RunIdentity
    static let faces = Identity(pipeline: .init(name: "faces", fingerprint: "aaaa"),
                                inputs: [.init(name: "photos.tar", bytes: 1000)])
    static let everything = OutputLayout.facepipeNames

    func decide(present: [String] = everything, previous: Identity? = faces, current: Identity = faces,
                overwrite: Bool = false, resume: Bool = false) -> OutputFolderRule.Decision {
        OutputFolderRule.decide(present: present, previous: previous, current: current, overwrite: overwrite, resume: resume)
    }

    func refusal(_ decision: OutputFolderRule.Decision) -> String? {
        if case .refuse(let reason) = decision { return reason }
        return nil
    }

    @Test func aNewOrEmptyFolderIsWritten() {
        #expect(decide(present: [], previous: nil) == .write)
    }

    @Test func theSameRunIsWritten() {
        #expect(decide() == .write)
    }

    @Test func anotherPipelineIsRefusedNamingItAndTheFlags() throws {
        var other = Self.faces
        other.pipeline = .init(name: "whole-frame", fingerprint: "bbbb")
        let reason = try #require(refusal(decide(previous: other)))
        #expect(reason.contains("pipeline whole-frame (this run: faces)"))
        #expect(reason.contains("--overwrite") && reason.contains("--resume"))
    }

    @Test func otherOptionsOfTheSamePipelineAreRefused() throws {
        var other = Self.faces
        other.pipeline.fingerprint = "cccc"
        let reason = try #require(refusal(decide(previous: other)))
        #expect(reason.contains("pipeline faces with other stages or options"))
    }

    @Test func otherInputsAreRefused() throws {
        var other = Self.faces
        other.inputs = [.init(name: "holiday.tar", bytes: 1000)]
        let reason = try #require(refusal(decide(previous: other)))
        #expect(reason.contains("inputs holiday.tar (1000 bytes) (this run: photos.tar (1000 bytes))"))
        other.inputs = [.init(name: "photos.tar", bytes: 999)]
        #expect(refusal(decide(previous: other)) != nil, "same name, other size")
    }

    /// A folder or a stream has no size before it is read: the same name is the same input.
    @Test func aFolderInputIsComparedByName() {
        let folder = Identity(pipeline: Self.faces.pipeline, inputs: [.init(name: "photos", bytes: nil)])
        var recorded = folder
        recorded.inputs = [.init(name: "photos", bytes: 2_809_731)]
        #expect(decide(previous: recorded, current: folder) == .write)
        recorded.inputs = [.init(name: "holiday", bytes: 2_809_731)]
        #expect(refusal(decide(previous: recorded, current: folder)) != nil)
    }

    @Test func outputsWithoutRunJSONAreRefused() {
        #expect(refusal(decide(present: ["manifest.csv", "images"], previous: nil)) != nil)
    }

    @Test func overwriteRemovesWhatIsPresentAndResumeKeepsIt() {
        var other = Self.faces
        other.pipeline.name = "passport"
        #expect(decide(present: ["run.json", "images"], previous: other, overwrite: true) == .remove(["run.json", "images"]))
        #expect(decide(previous: other, resume: true) == .write)
        #expect(decide(previous: nil, resume: true) == .write)
    }

    @Test func aRunRefusesAnotherRunsFolderAndOverwriteKeepsTheUsersFiles() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 6))]
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let notes = out.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: notes)
        _ = try await run(redSquarePipeline(), inputs, out: out)   // a plain rerun
        let otherPipeline = redSquarePipeline(label: "other")
        await #expect(throws: PipelineError.self) { _ = try await run(otherPipeline, inputs, out: out) }
        let stale = out.appendingPathComponent("images/stale.ppm")
        try FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: stale)
        _ = try await run(otherPipeline, inputs, out: out, overwrite: true)
        #expect(FileManager.default.fileExists(atPath: notes.path), "the user's file stays")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "facepipe's folders are emptied")
        let otherInputs = [memoryInput("b.tar", sampleItems(archive: "b.tar", count: 3))]
        await #expect(throws: PipelineError.self) { _ = try await run(otherPipeline, otherInputs, out: out) }
        _ = try await run(otherPipeline, otherInputs, out: out, resume: true)
    }

    /// `run --overwrite`'s help names every file and folder it removes
    /// (``OutputLayout/facepipeNames``, folders with a `/`), as the binary
    /// prints it, so a name added to the layout cannot be missing there.
    @Test(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"))
    func overwritesHelpNamesEverythingItRemoves() throws {
        let lines = try SharedOptionsTests.help("run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.hasPrefix("--overwrite") })
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("-") } ?? lines.endIndex
        let paragraph = lines[start..<end].joined(separator: " ")
        let folders = Set(OutputLayout.outputFolders + [OutputLayout.outputTarsFolder, OutputLayout.redactedFolder, OutputLayout.cacheFolder])
        for name in OutputLayout.facepipeNames {
            let shown = folders.contains(name) ? name + "/" : name
            #expect(paragraph.contains(" \(shown),") || paragraph.contains(" \(shown) "), "--overwrite's help names \(shown): \(paragraph)")
        }
    }
}
