import Foundation
import Pipeline
import RunFolders
import Testing
import _TestSupport

/// The report of a large run stays bounded (issue 51): the manifest is read
/// one piece at a time with the same rows as a whole read, `report.html`
/// lists the first ``RunReport/galleryLimit`` images of each gallery filter
/// with the exact counts, and reasons past ``ReasonTally/maxReasons`` kinds
/// are counted together.
struct BoundedReportTests {
    static func line(_ cells: [String: String]) -> String {
        Manifest.columns.map { column in
            let cell = cells[column] ?? ""
            return cell.contains(where: { ",\"\r\n".contains($0) }) ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }.joined(separator: ",") + "\r\n"
    }

    /// A manifest of `count` images: every third has a kept face, every
    /// fifth a rejected one, the rest no face.
    static func manifest(images count: Int) -> String {
        var text = Manifest.columns.joined(separator: ",") + "\r\n"
        for index in 0..<count {
            let base = ["archive": "photos.tar", "entry": "img-\(index).jpg", "index": String(index),
                        "output": "images/photos.tar/img-\(index).jpg.png", "width": "16", "height": "16"]
            var wrote = false
            if index % 3 == 0 {
                text += line(base.merging(["status": "ok", "face": "0", "confidence": "0.9000", "w": "30.00"]) { $1 })
                wrote = true
            }
            if index % 5 == 0 {
                text += line(base.merging(["status": "rejected", "face": "1", "rejection": "confidence 0.1\(index % 7) < 0.70"]) { $1 })
                wrote = true
            }
            if !wrote { text += line(base.merging(["status": "no_face"]) { $1 }) }
        }
        return text
    }

    /// A folder holding `manifest` and a run.json (not a run record: the page says so and is still drawn).
    static func folder(manifest: String) throws -> URL {
        let folder = try temporaryFolder()
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.csv"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("run.json"))
        return folder
    }

    @Test func theGalleryListsTheFirstImagesOfEachFilterWithExactCounts() throws {
        let count = 30_000
        let folder = try Self.folder(manifest: Self.manifest(images: count))
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try RunReport.write(directory: folder)
        let kept = (0..<count).filter { $0 % 3 == 0 }, rejected = (0..<count).filter { $0 % 5 == 0 }
        let withoutKept = (0..<count).filter { $0 % 3 != 0 }
        #expect(report.galleryCounts == [count, kept.count, rejected.count, withoutKept.count])
        #expect(report.entries == count && report.keptFaces == kept.count && report.faces == kept.count + rejected.count)
        // Each filter's first images are all there, in manifest order.
        let listed = report.gallery.map { Int($0.entry.dropFirst(4).dropLast(4))! }
        #expect(listed == listed.sorted())
        let limit = RunReport.galleryLimit
        let expected = Set(Array(0..<limit) + kept.prefix(limit) + rejected.prefix(limit) + withoutKept.prefix(limit))
        #expect(Set(listed) == expected)
        let page = try Data(contentsOf: folder.appendingPathComponent(OutputLayout.reportName))
        #expect(page.count < 1_500_000, "report.html is \(page.count) bytes for \(count) images")
        // One reason, counted exactly.
        #expect(report.rejections.map(\.count) == [rejected.count])
    }

    /// The page drawn by a browser says how many images each filter holds, and that it lists the first ones.
    @Test(.enabled(if: Chromium.enabled, "needs chromium (apt-get install chromium)"))
    func theRenderedGallerySaysItListsTheFirstImages() throws {
        let count = 6_000
        let folder = try Self.folder(manifest: Self.manifest(images: count))
        defer { try? FileManager.default.removeItem(at: folder) }
        try RunReport.write(directory: folder)
        let dom = try Chromium.dumpDOM(folder.appendingPathComponent(OutputLayout.reportName))
        #expect(Chromium.text(ofID: "gallery-page", in: dom) == "page 1 of 50, the first 2400 of 6000 images")
        #expect(dom.contains("all images (6000)") && dom.contains("with kept faces (2000)") && dom.contains("with rejected faces (1200)"))
        #expect(dom.components(separatedBy: "loading=\"lazy\"").count - 1 == 48)
    }

    /// Read through the file in pieces, rows that straddle a piece's end
    /// (quoted commas, doubled quotes, CR LF inside a field) come out as a
    /// whole read gives them.
    @Test func aManifestReadInPiecesGivesTheRowsOfAWholeRead() throws {
        var text = Manifest.columns.joined(separator: ",") + "\r\n"
        var index = 0
        while text.utf8.count < 3 << 20 {
            text += Self.line(["archive": "a.tar", "entry": "x,\"\(index)\"\r\ny.jpg", "index": String(index), "status": "error",
                               "error": "decode: \"" + String(repeating: "q", count: index % 97) + "\", then more"])
            index += 1
        }
        let folder = try Self.folder(manifest: text)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try ManifestReader(in: RunFolder(folder))
        var rows: [ManifestRow] = []
        while let row = try reader.nextRow() { rows.append(row) }
        #expect(rows == (try ManifestTable(csv: text)).rows)
        #expect(rows.count == index && rows.last?[.entry] == "x,\"\(index - 1)\"\r\ny.jpg")
    }

    /// Past ``ReasonTally/maxReasons`` kinds, new reasons are one group, last.
    @Test func reasonsPastTheLimitAreCountedTogether() {
        let kinds = ReasonTally.maxReasons + 500
        // Reasons told apart by letters (digits would become `…`).
        func letters(_ number: Int) -> String {
            var n = number, text = ""
            repeat { text.append(Character(UnicodeScalar(UInt8(97 + n % 26)))); n /= 26 } while n > 0
            return text
        }
        let groups = ReasonGroup.grouping((0..<kinds).map { (text: "stage: kind \(letters($0))", entry: "a.tar/\($0).jpg") })
        #expect(groups.count == ReasonTally.maxReasons + 1)
        #expect(groups.last == ReasonGroup(reason: ReasonTally.otherReasons, count: 500, example: "a.tar/\(ReasonTally.maxReasons).jpg",
                                           exampleText: groups.last?.exampleText ?? ""))
        #expect(groups.reduce(0) { $0 + $1.count } == kinds)
    }
}
