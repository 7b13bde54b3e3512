import Foundation
import Pipeline
import Pipelines
import Testing

/// Issue 38 row 3: a mistyped pipeline, stage or option name gets the close
/// known names ("did you mean …?"), from one place (``NameSuggestion``),
/// in every message that lists the valid names.
struct NameSuggestionTests {
    struct Case: Sendable, CustomStringConvertible {
        var typed: String
        var known: [String]
        var expected: [String]
        var description: String { typed }
    }

    static let stages = ["decode", "orient", "detect-faces", "filter-confidence", "landmarks", "annotate", "write-outputs"]

    static let cases: [Case] = [
        Case(typed: "facs", known: PipelineRegistry.builtIn.names, expected: ["faces"]),
        Case(typed: "Faces", known: PipelineRegistry.builtIn.names, expected: ["faces"]),
        Case(typed: "training", known: PipelineRegistry.builtIn.names, expected: ["training-annotations"]),
        Case(typed: "detec-faces", known: stages, expected: ["detect-faces"]),
        Case(typed: "detect", known: stages, expected: ["detect-faces"]),
        Case(typed: "filter-conf", known: stages, expected: ["filter-confidence"]),
        Case(typed: "min-sise", known: ["mode", "min-face-size", "min-score", "canvas-arithmetic"], expected: ["min-face-size"]),
        Case(typed: "min-size", known: ["mode", "min-face-size", "min-score", "canvas-arithmetic"], expected: ["min-face-size"]),
        Case(typed: "mod", known: ["mode", "min-face-size", "min-score"], expected: ["mode"]),
        // Nothing close: no suggestion rather than a wild one.
        Case(typed: "x", known: ["mode", "min-score"], expected: []),
        Case(typed: "zebra", known: PipelineRegistry.builtIn.names, expected: []),
        Case(typed: "at", known: ["mode", "min-score"], expected: []),
    ]

    @Test(arguments: cases)
    func closeNamesAreSuggested(_ c: Case) {
        #expect(NameSuggestion.closeMatches(to: c.typed, among: c.known) == c.expected)
    }

    @Test func messagesOfUnknownNamesSuggestTheCloseOnes() {
        #expect(PipelineError.unknownPipeline(name: "facs", available: ["faces", "passport"]).description
                == "unknown pipeline facs (did you mean faces?); available: faces, passport")
        #expect(PipelineError.unknownStage(name: "detec-faces", pipeline: "faces", available: ["decode", "detect-faces"]).description
                == "pipeline faces has no stage detec-faces (did you mean detect-faces?); stages: decode, detect-faces")
        #expect(PipelineError.unknownOption(stage: "detect-faces", option: "min-sise", available: ["mode", "min-face-size", "min-score"]).description
                == "stage detect-faces has no option min-sise (did you mean min-face-size?); options: mode, min-face-size, min-score")
        #expect(PipelineError.unknownPipeline(name: "zebra", available: ["faces"]).description == "unknown pipeline zebra; available: faces")
    }

    /// Through the binary: `run`, `describe` and `--set`, each a usage error (exit 2) with the suggestion.
    @Test(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"),
          arguments: [
            (["describe", "facs"], "unknown pipeline facs (did you mean faces?)"),
            (["run", "facs", "photos", "--out", "out"], "unknown pipeline facs (did you mean faces?)"),
            (["run", "faces", "photos", "--out", "out", "--set", "detec-faces.min-face-size=40px"],
             "pipeline faces has no stage detec-faces (did you mean detect-faces?)"),
            (["run", "faces", "photos", "--out", "out", "--set", "detect-faces.min-sise=40px"],
             "stage detect-faces has no option min-sise (did you mean min-face-size?)"),
          ])
    func theCommandsSuggestCloseNames(_ arguments: [String], _ expected: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        let result = try FacepipeProcess.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments): exit \(result.status), \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}
