import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import RunFolders
import Testing
import _TestSupport

/// Manifest texts grouped by reason: what is particular to one entry goes,
/// the kind of problem and its limit stay.
struct ReasonGroupTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let reasons: [String]
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(text: "decode: truncated JPEG data: Premature end of JPEG file", reasons: ["decode: truncated JPEG data"]),
        Case(text: "decode: image too large: 50000x50000 = 2500000000 pixels exceeds the limit of 100000000",
             reasons: ["decode: image too large"]),
        Case(text: "decode: empty input (0 bytes)", reasons: ["decode: empty input (… bytes)"]),
        Case(text: "decode: unknown image format: first bytes 54 68 (\"Th\") are neither JPEG nor PNG",
             reasons: ["decode: unknown image format"]),
        Case(text: "archive unreadable, later entries lost: cut.tar: damaged archive in the data of entry #5 \"a.jpg\", at byte 9",
             reasons: ["archive unreadable, later entries lost"]),
        Case(text: "confidence 0.62 < 0.70", reasons: ["confidence … < 0.70"]),
        Case(text: "landmarks: face presence 0.00 < 0.5", reasons: ["landmarks: face presence … < 0.5"]),
        Case(text: "passport: 2 faces in the photo; yaw 0.21 rad; quality 0.31 < 0.4",
             reasons: ["passport: … faces in the photo", "passport: yaw … rad", "passport: quality … < 0.4"]),
        Case(text: "symlink: not a regular file", reasons: ["symlink: not a regular file"]),
        Case(text: "file: entry of 600000000 bytes exceeds the limit of 536870912 bytes",
             reasons: ["file: entry of … bytes exceeds the limit of … bytes"]),
        Case(text: "a \"quoted name\" here", reasons: ["a \"…\" here"]),
    ])
    func reasons(_ c: Case) {
        #expect(ReasonGroup.reasons(of: c.text) == c.reasons)
    }

    @Test func groupsCountAndKeepTheFirstExample() {
        let groups = ReasonGroup.grouping([
            (text: "confidence 0.62 < 0.70", entry: "a.tar/1.jpg"),
            (text: "decode: empty input (0 bytes)", entry: "a.tar/2.jpg"),
            (text: "confidence 0.41 < 0.70", entry: "a.tar/3.jpg"),
            (text: "passport: yaw 0.30 rad; quality 0.10 < 0.4", entry: "a.tar/4.jpg"),
            (text: "passport: yaw 0.25 rad", entry: "a.tar/5.jpg"),
        ])
        #expect(groups == [
            ReasonGroup(reason: "confidence … < 0.70", count: 2, example: "a.tar/1.jpg", exampleText: "confidence 0.62 < 0.70"),
            ReasonGroup(reason: "passport: yaw … rad", count: 2, example: "a.tar/4.jpg",
                        exampleText: "passport: yaw 0.30 rad; quality 0.10 < 0.4"),
            ReasonGroup(reason: "decode: empty input (… bytes)", count: 1, example: "a.tar/2.jpg",
                        exampleText: "decode: empty input (0 bytes)"),
            ReasonGroup(reason: "passport: quality … < 0.4", count: 1, example: "a.tar/4.jpg",
                        exampleText: "passport: yaw 0.30 rad; quality 0.10 < 0.4"),
        ])
    }

    @Test(arguments: [
        ("photos.tar", "./t1.jpg", "photos.tar/t1.jpg"),
        ("photos.tar", "././a/./b.jpg", "photos.tar/a/./b.jpg"),
        ("photos.tar", "a/./b.jpg", "photos.tar/a/./b.jpg"),
        ("photos.tar", "./", "photos.tar/./"),
        ("photos.tar", "", "photos.tar"),
        ("holiday", ".hidden.jpg", "holiday/.hidden.jpg"),
    ])
    func displayNamesDropLeadingCurrentFolders(archive: String, entry: String, shown: String) {
        #expect(EntryDisplayName.of(archive: archive, entry: entry) == shown)
    }

    /// Issue 38 row 9: a tar made with `tar -C dir .` stores `./t1.jpg`; the
    /// notices while the run goes on, the problems grouped by reason at its
    /// end and report.html's examples and gallery name it `photos.tar/t1.jpg`,
    /// while the manifest's `entry` column keeps the name as stored.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func entriesStoredWithLeadingCurrentFolderAreShownWithoutIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try FastPNGEncoder.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)))
        let writer = try TarWriter(path: folder.appendingPathComponent("photos.tar").path)
        try writer.add(path: "./t1.jpg", data: Array("not a picture".utf8))
        try writer.add(path: "./good.png", data: png)
        try writer.addSymbolicLink(path: "./link.jpg", target: "good.png")
        try writer.finish()

        let (status, stderr) = try FacepipeProcess.run(["run", "--pipeline", "upright-png", "photos.tar", "--out", "out"], in: folder)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains("facepipe: failed photos.tar/t1.jpg: decode:"), "\(stderr)")
        #expect(stderr.contains("facepipe: skipped photos.tar/link.jpg:"), "\(stderr)")
        #expect(stderr.contains("(e.g. photos.tar/t1.jpg)"), "\(stderr)")
        #expect(stderr.contains("(e.g. photos.tar/link.jpg)"), "\(stderr)")
        #expect(!stderr.contains("/./"), "\(stderr)")

        let out = folder.appendingPathComponent("out")
        let report = try RunReport.read(directory: out).report
        #expect(report.errors.map(\.example) == ["photos.tar/t1.jpg"])
        #expect(report.skipped.map(\.example) == ["photos.tar/link.jpg"])
        #expect(report.gallery.map(\.entry) == ["good.png"], "the gallery's caption joins it to photos.tar")
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        #expect(manifest.contains("photos.tar,./t1.jpg,"), "the manifest keeps the name as stored: \(manifest)")
    }
}
