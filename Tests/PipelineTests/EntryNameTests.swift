import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing

/// An entry's name is built once where its input is read (``EntryName``):
/// its text forms are functions of it, never parsed back from one another.
struct EntryNameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: EntryName
        let text: String
        let jsonLine: String
        let errorLine: String
        let completionKey: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(name: EntryName(member: Array("a/b.jpg".utf8)), text: "a/b.jpg",
             jsonLine: "in.tar#a/b.jpg", errorLine: "in.tar#a/b.jpg", completionKey: "2/7"),
        Case(name: EntryName(member: Array("clip.mp4".utf8), frame: 123), text: "clip.mp4#000123",
             jsonLine: "in.tar#clip.mp4#000123", errorLine: "in.tar#clip.mp4#000123", completionKey: "2/7#123"),
        Case(name: EntryName(member: Array("clip.mp4".utf8), frame: 1_234_567, isWholeInput: true), text: "clip.mp4#1234567",
             jsonLine: "in.tar", errorLine: "in.tar#clip.mp4#1234567", completionKey: "2/7#1234567"),
        Case(name: EntryName(member: Array("x.jpg".utf8), isWholeInput: true), text: "x.jpg",
             jsonLine: "in.tar", errorLine: "in.tar", completionKey: "2/7"),
        Case(name: EntryName(member: [0x63, 0x61, 0x66, 0xE9], frame: 0), text: "caf\u{FFFD}#000000",
             jsonLine: "in.tar#caf\u{FFFD}#000000", errorLine: "in.tar#caf\u{FFFD}#000000", completionKey: "2/7#0"),
    ])
    func textFormsAreFunctionsOfTheName(_ example: Case) {
        #expect(example.name.text == example.text)
        #expect(example.name.rawName == example.name.member + (example.name.frame == nil ? [] : Array(example.text.utf8.suffix(from: example.text.utf8.lastIndex(of: 0x23)!))))
        #expect(example.name.jsonFile(input: "in.tar", framed: true) == example.jsonLine)
        #expect(example.name.jsonFile(input: "in.tar", framed: false) == example.errorLine)
        #expect(EntryName.completionKey(input: 2, index: 7, frame: example.name.frame) == example.completionKey)
    }

    /// A JSON line names an input's member `<input>#<member>`, even when
    /// the input's name ends with the member's (it used to be taken for the
    /// input itself: `my-photo.ppm` for the member `photo.ppm`).
    @Test func aJSONLineNamesAMemberByItsInputAndItsName() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = [entry("my-photo.ppm", 0, "photo.ppm", makePPM(square: (x: 2, y: 2, side: 5)))]
        let input = RunInput(name: "my-photo.ppm", path: nil) { InMemoryEntrySource(items: items) }
        let lines = Pipe()
        _ = try await PipelineRunner.runJSONLines(try redSquarePipeline().compile(modelsDirectory: folder), inputs: [input],
                                                  output: lines.fileHandleForWriting, workers: 1)
        try lines.fileHandleForWriting.close()
        let text = String(decoding: lines.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(line["file"] as? String == "my-photo.ppm#photo.ppm", "\(text)")
    }
}

/// The folder source walks folders one at a time, each listed when the walk
/// reaches it (memory holds the folders on the way down, not the listing of
/// the tree), and still gives every file in the order of its relative
/// path's bytes, as a tar of the folder would.
struct FolderWalkTests {
    @Test func aFolderIsListedWhenTheWalkReachesItInPathOrder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        func file(_ path: String) throws {
            let url = root.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        // `.` (0x2E) < `/` (0x2F) < `0` (0x30): a folder's files come between its name's neighbours.
        for path in ["a.txt", "a/b.txt", "a/b/c.txt", "a0.txt", "a-b/x.txt", "ab", "b.txt", "z/y.txt"] { try file(path) }
        try manager.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        var source = try RunInput.folder(path: root.path, name: "root").open()
        func name(_ item: SourceItem?) -> String? {
            switch item {
            case .skipped(_, let name, _)?: name
            case .entry(let entry)?: entry.name
            default: nil
            }
        }
        var names = [try #require(name(try source.next()))]
        #expect(source.position == ReadPosition(unit: .entries, done: 1, total: 8), "the files counted before the walk")
        // Files added to folders the walk has not reached yet are met in their place.
        for path in ["a/b/later.txt", "z/later.txt"] { try file(path) }
        var indices = [0]
        while let item = try source.next() {
            names.append(try #require(name(item)))
            if case .skipped(let index, _, _) = item { indices.append(index) }
        }
        let expected = ["a-b/x.txt", "a.txt", "a/b.txt", "a/b/c.txt", "a/b/later.txt", "a0.txt", "ab", "b.txt", "z/later.txt", "z/y.txt"]
        #expect(names == expected)
        #expect(expected == expected.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(indices == Array(0..<expected.count))
        #expect(source.position == ReadPosition(unit: .entries, done: Int64(expected.count), total: Int64(expected.count)))
    }
}
