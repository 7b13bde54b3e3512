import Foundation
import Pipeline
import RunFolders
import Testing

/// A manifest row is read whole before its fields are checked, so its size
/// is bounded: a row longer than ``ManifestReader/rowLimit`` is refused once
/// that many bytes are read, naming its line, whatever the rest of the file.
struct ManifestRowLimitTests {
    static let limit = 16 << 20
    static let reason = "longer than \(limit) bytes (a row facepipe writes is far shorter)"
    static let header = Manifest.columns.joined(separator: ",") + "\n"

    /// A row of `bytes` bytes, line end included, as wide as the header.
    static func row(bytes: Int) -> String {
        let commas = String(repeating: ",", count: Manifest.columns.count - 1)
        return String(repeating: "x", count: bytes - commas.count - 1) + commas + "\n"
    }

    @Test func readsARowOfTheLimitAndRefusesOneByteMore() throws {
        #expect(ManifestReader.rowLimit == Self.limit)
        let fits = try ManifestTable(csv: Self.header + Self.row(bytes: Self.limit) + Self.row(bytes: 40))
        #expect(fits.rows.count == 2)
        #expect(throws: ReportError.malformedManifest(line: 3, reason: Self.reason)) {
            try ManifestTable(csv: Self.header + Self.row(bytes: 40) + Self.row(bytes: Self.limit + 1))
        }
    }

    /// `facepipe report` on a run folder whose manifest holds a 2 GiB line
    /// (a sparse file: NUL bytes, no line end): a clear error naming the
    /// line, exit 2, no report written, and the folder as it was.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"), .timeLimit(.minutes(1)))
    func reportRefusesATwoGigabyteLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.csv")
        try Data(Self.header.utf8).write(to: manifest)
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.truncate(atOffset: UInt64(Self.header.utf8.count) + (2 << 30))
        try handle.close()
        try Data("{}".utf8).write(to: folder.appendingPathComponent("run.json"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let (status, stderr) = try FacepipeProcess.run(["report", folder.path], in: folder)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains("manifest.csv line 2: \(Self.reason)"), "\(stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("stderr-") }.sorted()
        #expect(after == before)
    }
}
