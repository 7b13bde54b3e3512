import Foundation
import Pipeline
import Testing

/// `--resume` with `--output-tar` takes the entries whose files finished
/// tars hold intact from their completion records (no stage runs for them,
/// no image is drawn again) and rewrites only what is missing or damaged;
/// a damaged, truncated or swapped finished tar is never trusted, and the
/// tars and manifest come out the bytes of an uninterrupted run.
@Suite struct OutputTarResumeTests {
    /// How a finished tar is spoiled before the resume.
    enum Damage: String, CaseIterable, Sendable {
        /// One byte flipped in the contents of a member that is neither its tar's first nor last.
        case flippedByteInAMiddleMember
        /// A tar cut to half its size.
        case truncated
        /// Two tars' files swapped.
        case swapped
    }

    /// Tars of three to five entries of the red square pipeline's files.
    static let tarBytes = 8000

    @Test(arguments: Damage.allCases)
    func aResumeReusesWhatIntactTarsHoldAndRedoesOnlyDamagedMembers(_ damage: Damage) async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let first = try await OutputTarRolloverTests.tarRun(out, workers: 2, bytes: Self.tarBytes)
        let folder = out.appendingPathComponent("outputs")
        let written = try outputFiles(folder)
        let manifest = try manifestLines(out)
        let tars = try OutputTarRolloverTests.tarMembers(out)
        func entries(_ tar: String) -> [String] {
            var seen: [String] = []
            for member in tars[tar]! where seen.last != OutputTarRolloverTests.entryOf(member.name) {
                seen.append(OutputTarRolloverTests.entryOf(member.name))
            }
            return seen
        }
        let names = tars.keys.sorted()
        // The tar with most entries, not the last (so the resume begins it from the finished file).
        let busiest = try #require(names.dropLast().max { entries($0).count < entries($1).count })
        try #require(entries(busiest).count >= 3 && names.count >= 3)
        func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

        let redone: Int
        switch damage {
        case .flippedByteInAMiddleMember:
            var bytes = try #require(written[busiest])
            let member = try #require(tars[busiest]!.first { OutputTarRolloverTests.entryOf($0.name) == entries(busiest)[1] })
            let range = try #require(bytes.range(of: member.data))
            bytes[range.lowerBound + range.count / 2] ^= 0x01
            try bytes.write(to: url(busiest))
            redone = 1
        case .truncated:
            let bytes = try #require(written[busiest])
            try bytes.prefix(bytes.count / 2).write(to: url(busiest))
            redone = -1
        case .swapped:
            try FileManager.default.moveItem(at: url(names[0]), to: url("swap"))
            try FileManager.default.moveItem(at: url(names[1]), to: url(names[0]))
            try FileManager.default.moveItem(at: url("swap"), to: url(names[1]))
            redone = entries(names[0]).count + entries(names[1]).count
        }

        let summary = try await OutputTarRolloverTests.tarRun(out, workers: 3, bytes: Self.tarBytes, resume: true)
        #expect(summary.writeFailure == nil)
        #expect(try outputFiles(folder) == written)
        #expect(try manifestLines(out) == manifest)
        #expect(summary.entries == first.entries)
        #expect(summary.resumedEntries + summary.redoneEntries == first.entries)
        if redone >= 0 {
            #expect(summary.redoneEntries == redone)
        } else {
            // Those of that tar's entries past the cut are done again.
            #expect(summary.redoneEntries >= 1 && summary.redoneEntries <= entries(busiest).count)
        }
        let damagedTar = damage == .swapped ? names[0] : busiest
        #expect(summary.notes.contains { $0.hasPrefix("outputs/\(damagedTar): ") && $0.contains("done again") }, "\(summary.notes)")

        // A second resume finds every tar intact: nothing is redone, every tar is kept.
        let again = try await OutputTarRolloverTests.tarRun(out, workers: 1, bytes: Self.tarBytes, resume: true)
        #expect(again.resumedEntries == first.entries && again.redoneEntries == 0 && again.notes.isEmpty)
        #expect(try outputFiles(folder) == written)
    }

    /// A run stopped by a file size limit while writing its third tar, then
    /// resumed through the binary: the two finished tars' entries are
    /// taken from their records (run.json counts them resumed), and the tars
    /// are those of an uninterrupted run. Then a byte of the second tar's
    /// member is flipped: that entry alone is done again, with a note.
    @Test(.enabled(if: FacepipeProcess.available))
    func anInterruptedRunResumesAfterItsFinishedTarsWithoutRedoingThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, out, _) = try OutputTarRolloverTests.fullDiskTarRun(in: folder)
        let reference = folder.appendingPathComponent("reference")
        let whole = try FacepipeProcess.run(arguments + ["--out", reference.path], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        let expected = try outputFiles(reference.appendingPathComponent("outputs"))
        #expect(expected.count == 4)
        func summary() throws -> [String: Any] {
            let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
            return try #require(run?["summary"] as? [String: Any])
        }

        let resumed = try FacepipeProcess.run(arguments + ["--out", out.path, "--resume"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try summary()["resumedEntries"] as? Int == 2)
        #expect(try outputFiles(out.appendingPathComponent("outputs")) == expected)
        #expect(try manifestLines(out) == manifestLines(reference))

        let second = out.appendingPathComponent("outputs/000001.tar")
        var bytes = try Data(contentsOf: second)
        bytes[512 + 100] ^= 0x01
        try bytes.write(to: second)
        let repaired = try FacepipeProcess.run(arguments + ["--out", out.path, "--resume"], in: folder)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(try summary()["resumedEntries"] as? Int == 3)
        #expect(try summary()["redoneEntries"] as? Int == 1)
        #expect(repaired.stderr.contains("outputs/000001.tar: a member's contents differ"), "\(repaired.stderr)")
        #expect(try outputFiles(out.appendingPathComponent("outputs")) == expected)
        #expect(try manifestLines(out) == manifestLines(reference))
    }
}
