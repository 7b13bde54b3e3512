import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import Testing

/// Where outputs go so that no folder gets too many files: an image file
/// given as an input has no folder of its own, and an input's entries from
/// the 10 000th on go into numbered folders (``OutputNames/claim(entryRawName:index:)``).
@Suite struct OutputFolderLayoutTests {
    @Test func entriesFromTheTenThousandthGoIntoNumberedFolders() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let ppm = makePPM(square: (x: 3, y: 3, side: 5))
        let items = [entry("a.tar", 5, "./000001/img.ppm", ppm), entry("a.tar", 9_999, "dir/img.ppm", ppm),
                     entry("a.tar", 10_000, "./dir/img.ppm", ppm), entry("a.tar", 10_001, "img.ppm", ppm),
                     entry("a.tar", 25_000, "dir/img.ppm", ppm)]
        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", items)], out: out)
        let images = try outputFiles(out).keys.filter { $0.hasPrefix("images/") }.sorted()
        #expect(images == ["images/a.tar/000001/dir/img.ppm.ppm", "images/a.tar/000001/img.ppm.ppm",
                           "images/a.tar/000001/img~10001.ppm.ppm", "images/a.tar/000002/dir/img.ppm.ppm",
                           "images/a.tar/dir/img.ppm.ppm"])
        let rows = try manifestRows(out)
        #expect(rows.map { $0[1] } == ["./000001/img.ppm", "dir/img.ppm", "./dir/img.ppm", "img.ppm", "dir/img.ppm"])
    }

    @Test func theFolderNumberHasSixDigits() {
        #expect([0, 9_999, 10_000, 123_456_789, 9_999_999_999].map(OutputNames.folderName(ofIndex:))
                == ["000000", "000000", "000001", "012345", "999999"])
    }

    /// An image file given as an input is named without a folder of its own:
    /// `images/a.png.png`, not `images/a.png/a.png.png`.
    @Test(.enabled(if: FacepipeProcess.available))
    func imageFilesAreNamedByTheirOwnNamesAndFoldersBesideThemGetAPosition() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try FastPNGEncoder.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)))
        let other = try FastPNGEncoder.encode(RGBImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 8 * 8 * 3)))
        let sub = folder.appendingPathComponent("sub"), named = folder.appendingPathComponent("a.png.png")
        for url in [sub, named] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try Data(png).write(to: folder.appendingPathComponent("a.png"))
        try Data(other).write(to: sub.appendingPathComponent("a.png"))
        try Data(png).write(to: named.appendingPathComponent("x.png"))
        let out = folder.appendingPathComponent("out")
        let result = try FacepipeProcess.run(["run", "upright-png", "a.png", "sub/a.png", "a.png.png", "--out", out.path, "--quiet"],
                                             in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let images = try outputFiles(out).keys.filter { $0.hasPrefix("images/") }.sorted()
        #expect(images == ["images/a.png.png", "images/a.png~2.png/x.png.png", "images/a~1.png.png"])
        let rows = try manifestRows(out)
        #expect(rows.map { $0[0] } == ["a.png", "a~1.png", "a.png~2.png"])
        #expect(try Data(contentsOf: out.appendingPathComponent("images/a~1.png.png")) != Data(contentsOf: out.appendingPathComponent("images/a.png.png")))
    }
}
