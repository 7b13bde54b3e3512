import Foundation
import Testing
import _TestSupport

/// Every Swift example in the README, `docs/` and the DocC catalogues is compiled: the block
/// follows a `<!-- snippet: PATH NAME -->` line, and PATH (a Swift file a
/// target or an example package compiles) holds the same lines between
/// `// snippet: NAME` and `// end snippet`. An example edited on one side
/// only, or a Swift block without its source, fails here.
@Suite struct DocSnippetTests {
    struct Block: CustomTestStringConvertible {
        var page: String
        var line: Int
        var source: (path: String, name: String)?
        var text: String
        var testDescription: String { "\(page):\(line)" }
    }

    static func pages() throws -> [URL] {
        let root = Fixtures.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("docs"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        let catalogue = root.appendingPathComponent("Sources/Pipeline/Pipeline.docc")
        let articles = try FileManager.default.contentsOfDirectory(at: catalogue, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + (docs + articles).sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of a Markdown page, with the snippet line before each.
    static func blocks(of page: URL) throws -> [Block] {
        let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else { index += 1; continue }
            var source: (String, String)?
            if index > 0 {
                let marker = lines[index - 1].trimmingCharacters(in: .whitespaces)
                if marker.hasPrefix("<!-- snippet: "), marker.hasSuffix(" -->") {
                    let fields = marker.dropFirst("<!-- snippet: ".count).dropLast(" -->".count).split(separator: " ")
                    if fields.count == 2 { source = (String(fields[0]), String(fields[1])) }
                }
            }
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
            blocks.append(Block(page: page.lastPathComponent, line: index + 1, source: source,
                                text: lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n")))
            index = end + 1
        }
        return blocks
    }

    /// The lines of `path` between `// snippet: name` and `// end snippet`.
    static func snippet(_ name: String, in path: String) throws -> String? {
        let lines = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            .components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// snippet: \(name)" }),
              let end = lines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// end snippet" })
        else { return nil }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    static func allBlocks() throws -> [Block] { try pages().flatMap(blocks(of:)) }

    @Test func theDocsShowSwiftExamples() throws {
        let pages = Set(try Self.allBlocks().map(\.page))
        #expect(pages.isSuperset(of: ["PIPELINES.md", "WritingAStage.md"]), "the pipeline-writing example is in the docs: \(pages)")
    }

    @Test(arguments: try DocSnippetTests.allBlocks())
    func eachSwiftExampleIsTheCompiledSource(_ block: Block) throws {
        let source = try #require(block.source, "\(block.page):\(block.line): a ```swift block needs `<!-- snippet: PATH NAME -->` on the line before it")
        let compiled = try #require(try Self.snippet(source.name, in: source.path),
                                    "\(source.path) has no `// snippet: \(source.name)` … `// end snippet`")
        #expect(block.text == compiled, "\(block.page):\(block.line) differs from \(source.path)'s snippet \(source.name): copy one to the other")
    }

    @Test func aBlockWithoutItsSourceOrChangedOnOneSideIsFound() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: page) }
        try """
        <!-- snippet: Tests/PipelineTests/DocExamples/WritingAPipeline.swift writing-a-pipeline -->
        ```swift
        import Pipeline
        ```

        ```swift
        let x = 1
        ```
        """.write(to: page, atomically: true, encoding: .utf8)
        let blocks = try Self.blocks(of: page)
        #expect(blocks.count == 2)
        #expect(blocks[1].source == nil)
        let compiled = try #require(try Self.snippet("writing-a-pipeline", in: blocks[0].source!.path))
        #expect(blocks[0].text != compiled, "a shortened copy is told apart")
    }
}
