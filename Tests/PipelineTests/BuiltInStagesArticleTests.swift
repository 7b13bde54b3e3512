import Foundation
import Pipeline
import Pipelines
import Testing
import _TestSupport

/// The DocC article "Built-in stages" has a row for every stage the named
/// pipelines use, naming each option `--set` can change on it, so a new
/// stage or option cannot ship undocumented.
@Suite struct BuiltInStagesArticleTests {
    /// Stage name → option names, over every built-in pipeline (per-face
    /// stages included) and the library stages no built-in pipeline uses.
    static func stages() -> [String: Set<String>] {
        var stages: [String: Set<String>] = [:]
        func visit(_ definition: StageDefinition) {
            stages[definition.name, default: []].formUnion(definition.options.map(\.name))
            definition.children.forEach(visit)
        }
        for pipeline in PipelineRegistry.builtIn.all { pipeline.stages.forEach(visit) }
        [Track().definition].forEach(visit)
        return stages
    }

    /// The article's table rows, by the stage name in the first cell.
    static func rows() throws -> [String: String] {
        let article = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Sources/Pipeline/Pipeline.docc/BuiltInStages.md"),
                                 encoding: .utf8)
        var rows: [String: String] = [:]
        for line in article.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if let name = cells.first?.trimmingCharacters(in: CharacterSet(charactersIn: "`")) { rows[name] = String(line) }
        }
        return rows
    }

    @Test func everyStageAndOptionHasItsRow() throws {
        let rows = try Self.rows()
        let stages = Self.stages()
        #expect(stages.count >= 15, "the named pipelines use the built-in stages: \(stages.keys.sorted())")
        for (stage, options) in stages.sorted(by: { $0.key < $1.key }) {
            let row = try #require(rows[stage], "BuiltInStages.md has no row for stage \(stage)")
            for option in options.sorted() {
                #expect(row.contains("`\(option)`"), "BuiltInStages.md's row for \(stage) does not name option \(option)")
            }
        }
    }
}
