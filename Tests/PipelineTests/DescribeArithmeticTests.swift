import Foundation
import Pipeline
import Pipelines
import Testing
import _TestSupport

/// Issue 38 row 8: what `facepipe describe` says runs in int8 comes from the
/// plans a run makes (``CompiledPipeline/int8Plans()``), so it follows
/// `canvas-arithmetic` and the planner, not prose written once.
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
struct DescribeArithmeticTests {
    static func int8Plans(_ name: String, arithmetic: String? = nil) throws -> [Int8Plan] {
        var pipeline = try PipelineRegistry.builtIn.named(name)
        if let arithmetic {
            pipeline = try pipeline.overriding([StageOverride(parsing: "detect-faces.canvas-arithmetic=\(arithmetic)")])
        }
        return try pipeline.compile(modelsDirectory: Fixtures.model("")).int8Plans()
    }

    /// `faces` (canvas-arithmetic: int8) runs BlazeFace's first layer and
    /// block projections in int8 on the pyramid canvases; with the int8
    /// first layer alone, only that layer; in fp32, nothing.
    @Test func theInt8StepsFollowTheCanvasArithmetic() throws {
        let int8 = try Self.int8Plans("faces")
        let canvas = try #require(int8.first { $0.subject.contains("pyramid canvases") }, "\(int8)")
        #expect(int8.count == 1, "only the canvases' plan has int8 steps: \(int8.map(\.line))")
        #expect(canvas.int8.first == Int8Plan.Kind(kind: "CONV_2D 5x5/2", count: 1), "\(canvas.line)")
        let projections = try #require(canvas.int8.first { $0.kind == "CONV_2D 1x1" }, "\(canvas.line)")
        #expect(projections.count > 1)
        #expect(canvas.int8Count < canvas.convolutions, "depthwise layers and heads stay fp32: \(canvas.line)")

        let firstLayer = try Self.int8Plans("faces", arithmetic: "int8-first-layer")
        #expect(firstLayer.map(\.int8) == [[Int8Plan.Kind(kind: "CONV_2D 5x5/2", count: 1)]], "\(firstLayer.map(\.line))")
        #expect(try Self.int8Plans("faces", arithmetic: "float32").isEmpty)
        #expect(try Self.int8Plans("whole-frame").isEmpty, "whole-frame has no pyramid canvases")
    }

    /// `facepipe describe faces` prints those plans' lines; no pipeline's
    /// fixed rationale claims an arithmetic.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func describeSaysWhatThePlanRunsInInt8() throws {
        let process = Process()
        process.executableURL = FacepipeProcess.binary
        process.arguments = ["describe", "faces"]
        process.environment = ProcessInfo.processInfo.environment.merging(["FACEPIPE_MODELS": Fixtures.model("").path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let plans = try Self.int8Plans("faces")
        try #require(!plans.isEmpty)
        for plan in plans {
            #expect(text.contains("  " + plan.line + "\n"), "\(text)")
        }
        for pipeline in PipelineRegistry.builtIn.all {
            #expect(!pipeline.rationale.contains("int8"), "\(pipeline.name)'s rationale states an arithmetic: \(pipeline.rationale)")
        }
    }
}
