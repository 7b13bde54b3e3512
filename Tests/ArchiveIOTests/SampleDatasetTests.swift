import ArchiveIO
import Foundation
import Testing
import _TestSupport

/// Reads the archives `datasets/build-sample.py` makes, when they have been
/// built (`make demo` or the command in datasets/README.md); skipped otherwise.
@Suite struct SampleDatasetTests {
    static let build = Fixtures.repositoryRoot.appendingPathComponent("datasets/build")
    static let bad = build.appendingPathComponent("sample-bad.tar").path
    static let truncated = build.appendingPathComponent("sample-bad-truncated.tar").path
    static let sample = build.appendingPathComponent("sample.tar").path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bad), "run datasets/build-sample.py first"))
    func badSampleDeliversEveryRegularFileAndExplainsTheRest() throws {
        let result = readAll(Self.bad)
        #expect(result.error == nil)
        #expect(result.items.map(\.index) == Array(0..<18))
        #expect(result.files.map(\.name) == [
            "bad/good.jpg", "bad/truncated.jpg", "bad/corrupt-middle.jpg", "bad/text.jpg", "bad/empty.jpg",
            "bad/huge-header.png", "../escape.jpg", "/abs.jpg", "bad/a/../../../up.jpg", "bad/dup.jpg", "bad/dup.jpg",
            "bad/caf\u{FFFD}-latin1.jpg", "bad/notes.txt", "bad/last-good.jpg",
        ])
        #expect(result.files[11].rawName == Array("bad/caf".utf8) + [0xE9] + Array("-latin1.jpg".utf8))
        #expect(result.skipped.map(\.kind) == [.directory, .symbolicLink, .hardLink, .fifo])
        #expect(result.files.first { $0.name == "bad/empty.jpg" }?.data.isEmpty == true)

        var names = OutputNames()
        let paths = result.files.map { names.claim($0) }
        #expect(Set(paths).count == paths.count)
        #expect(paths.allSatisfy { !$0.hasPrefix("/") && !$0.split(separator: "/").contains("..") })
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: truncated), "run datasets/build-sample.py first"))
    func truncatedBadSampleDeliversTheEntriesBeforeTheCut() throws {
        let result = readAll(Self.truncated)
        #expect(result.files.map(\.name) == ["bad/good.jpg", "bad/truncated.jpg"])
        let damage = try #require(result.damage)
        #expect(damage.entryIndex == 2)
        #expect(damage.entryName == "bad/corrupt-middle.jpg")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: sample), "run datasets/build-sample.py first"))
    func sampleHasItsPhotos() throws {
        let result = readAll(Self.sample)
        #expect(result.error == nil)
        #expect(result.files.count == 43)
        #expect(result.skipped.isEmpty)
    }
}
