#if canImport(Glibc)
import ArchiveIO
import Foundation
import Glibc
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import RunFolders
import Testing
#endif

/// `--output-tar` writes numbered tars, `DIR/outputs/000000.tar`, …, a new
/// one before an entry once the current one holds `--output-tar-size`;
/// `--resume` keeps the tars it writes the same (`TarSink`).
@Suite struct OutputTarRolloverTests {
    static let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 9)),
                         memoryInput("b.tar", sampleItems(archive: "b.tar", count: 5))]

    static func tarRun(_ out: URL, workers: Int, bytes: Int, resume: Bool = false) async throws -> RunSummary {
        let plan = try redSquarePipeline().compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
        var configuration = RunConfiguration(outputDirectory: out, workers: workers, resume: resume, outputTar: true)
        configuration.outputTarBytes = bytes
        return try await PipelineRunner.run(plan, inputs: inputs, configuration: configuration, toolVersion: "test")
    }

    /// The members of each tar in `outputs/`, by tar name, in order.
    static func tarMembers(_ out: URL) throws -> [String: [(name: String, data: Data)]] {
        let folder = out.appendingPathComponent("outputs")
        var tars: [String: [(name: String, data: Data)]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let reader = try TarReader(path: folder.appendingPathComponent(name).path)
            var members: [(name: String, data: Data)] = []
            while let item = try reader.next() {
                if case .file(let entry) = item { members.append((entry.name, Data(entry.data))) }
            }
            tars[name] = members
        }
        return tars
    }

    /// `images/a.tar/dir/img3.ppm.png` and `faces/a.tar/dir/img3.ppm.json` are the files of entry `a.tar/dir/img3.ppm`.
    static func entryOf(_ path: String) -> String {
        let rest = path.split(separator: "/", maxSplits: 1).last.map(String.init) ?? path
        return rest.hasSuffix(".json") ? String(rest.dropLast(5)) : String(rest.dropLast(4))
    }

    @Test(arguments: [1, 8000, 1 << 30])
    func tarsSplitByEntryAndSizeAlikeForAnyWorkerCount(bytes: Int) async throws {
        let folder = try temporaryFolder(), one = try temporaryFolder(), four = try temporaryFolder()
        defer { for url in [folder, one, four] { try? FileManager.default.removeItem(at: url) } }
        _ = try await run(redSquarePipeline(), Self.inputs, out: folder)
        _ = try await Self.tarRun(one, workers: 1, bytes: bytes)
        _ = try await Self.tarRun(four, workers: 4, bytes: bytes)
        let written = try outputFiles(one.appendingPathComponent("outputs"))
        #expect(try outputFiles(four.appendingPathComponent("outputs")) == written)
        #expect(try manifestRows(one) == manifestRows(folder))
        #expect(!FileManager.default.fileExists(atPath: one.appendingPathComponent("outputs.tar").path))

        let tars = try Self.tarMembers(one)
        let names = tars.keys.sorted()
        #expect(names == (0..<names.count).map { String(format: "%06d.tar", $0) })
        // In tar order, the members are the folder run's files in the order the run wrote them.
        var expected = try outputFiles(folder)
        expected["manifest.csv"] = nil
        expected["report.html"] = nil
        expected["skipped.csv"] = nil
        let members = names.flatMap { tars[$0]! }
        #expect(Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.data) }) == expected)
        // Each entry's files are in one tar, and every tar but the last holds at least `bytes`.
        var tarOfEntry: [String: String] = [:]
        for name in names {
            for member in tars[name]! {
                let entry = Self.entryOf(member.name)
                #expect(tarOfEntry[entry, default: name] == name, "\(member.name) split from its entry's other files")
                tarOfEntry[entry] = name
            }
            if name != names.last {
                let held = tars[name]!.reduce(0) { $0 + 512 + ($1.data.count + 511) / 512 * 512 }
                #expect(held >= bytes)
            }
        }
        let entriesWithFiles = Set(tarOfEntry.keys).count
        switch bytes {
        case 1: #expect(names.count == entriesWithFiles)
        case 1 << 30: #expect(names.count == 1)
        default: #expect(names.count > 1 && names.count < entriesWithFiles)
        }
    }

    @Test func aResumedRunKeepsTheTarsItWritesTheSameAndReplacesTheRest() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await Self.tarRun(out, workers: 2, bytes: 3000)
        let tars = out.appendingPathComponent("outputs")
        let first = try outputFiles(tars)
        #expect(first.count >= 4)
        func inode(_ name: String) throws -> UInt64 {
            try #require(FileManager.default.attributesOfItem(atPath: tars.appendingPathComponent(name).path)[.systemFileNumber] as? UInt64)
        }
        let kept = try inode("000000.tar")
        // Damaged, missing, a partial file of a killed run, and a tar past this run's last one.
        var damaged = try #require(first["000001.tar"])
        damaged[700] ^= 0xFF
        try damaged.write(to: tars.appendingPathComponent("000001.tar"))
        try FileManager.default.removeItem(at: tars.appendingPathComponent("000002.tar"))
        try Data([1, 2, 3]).write(to: tars.appendingPathComponent("000003.tar.partial"))
        try Data([1, 2, 3]).write(to: tars.appendingPathComponent("000999.tar"))
        let manifest = try manifestLines(out)

        let summary = try await Self.tarRun(out, workers: 3, bytes: 3000, resume: true)
        #expect(summary.writeFailure == nil)
        #expect(try outputFiles(tars) == first)
        #expect(try inode("000000.tar") == kept)
        #expect(try manifestLines(out) == manifest)
    }

    /// `upright-png` over four PNGs (the third 600×600) into tars of one
    /// entry each, stopped by a file size limit (`ulimit -f 256`: exit 3)
    /// while it writes the third tar: its arguments without `--out`, its
    /// DIR (`folder/out`) and its stderr.
    static func fullDiskTarRun(in folder: URL) throws -> (arguments: [String], out: URL, stderr: String) {
        let tar = try PNGTar(sides: [32, 32, 600, 32], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let out = folder.appendingPathComponent("out")
        let arguments = ["run", "upright-png", input.path, "--output-tar", "--output-tar-size", "1", "--quiet"]
        let limited = try FacepipeProcess.start(
            ["-c", "ulimit -f 256 && exec \"$0\" \"$@\"", FacepipeProcess.binary.path] + arguments + ["--out", out.path],
            executable: URL(fileURLWithPath: "/bin/bash"), in: folder)
        #expect(limited.wait() == 3, "stderr: \(limited.standardError)")
        return (arguments, out, limited.standardError)
    }

    /// A file written past the file size limit stops the run (exit 3): the
    /// tar being written is removed, the finished ones stay, and `--resume`
    /// completes the same tars a run without the limit writes.
    @Test(.enabled(if: FacepipeProcess.available))
    func aFullDiskKeepsTheFinishedTarsAndResumeCompletesThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, out, stderr) = try Self.fullDiskTarRun(in: folder)
        let reference = folder.appendingPathComponent("reference")
        #expect(stderr.contains("outputs/000002.tar.partial") && stderr.contains("File too large"), "\(stderr)")
        let tars = out.appendingPathComponent("outputs")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tars.path).sorted() == ["000000.tar", "000001.tar"])
        #expect(try manifestRows(out).isEmpty)

        let resumed = try FacepipeProcess.run(arguments + ["--out", out.path, "--resume"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let whole = try FacepipeProcess.run(arguments + ["--out", reference.path], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        let written = try outputFiles(tars)
        #expect(written.keys.sorted() == ["000000.tar", "000001.tar", "000002.tar", "000003.tar"])
        #expect(written == (try outputFiles(reference.appendingPathComponent("outputs"))))
        #expect(try manifestLines(out) == manifestLines(reference))
    }

    struct SizeCase: Sendable, CustomTestStringConvertible {
        let text: String
        let bytes: Int?
        var testDescription: String { text }
    }

    @Test(arguments: [
        SizeCase(text: "1", bytes: 1), SizeCase(text: "1073741824", bytes: 1 << 30), SizeCase(text: "512K", bytes: 512 << 10),
        SizeCase(text: "64m", bytes: 64 << 20), SizeCase(text: "1G", bytes: 1 << 30), SizeCase(text: "2GiB", bytes: 2 << 30),
        SizeCase(text: "3GB", bytes: 3 << 30), SizeCase(text: "1T", bytes: 1 << 40),
        SizeCase(text: "0", bytes: nil), SizeCase(text: "", bytes: nil), SizeCase(text: "G", bytes: nil),
        SizeCase(text: "-1G", bytes: nil), SizeCase(text: "1.5G", bytes: nil), SizeCase(text: "2048T", bytes: nil),
        SizeCase(text: "99999999999999999999999", bytes: nil), SizeCase(text: "1X", bytes: nil),
    ])
    func anOutputTarSizeIsBytesOrPowersOf1024(_ size: SizeCase) {
        #expect((try? OutputTarSize.bytes(size.text)) == size.bytes)
    }
}
