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
    static func int8Plans(_ name: String, arithmetic: String? = nil, mode: String? = nil) throws -> [Int8Plan] {
        var pipeline = try PipelineRegistry.builtIn.named(name)
        var overrides: [StageOverride] = []
        if let arithmetic { overrides.append(try StageOverride(parsing: "detect-faces.canvas-arithmetic=\(arithmetic)")) }
        if let mode { overrides.append(try StageOverride(parsing: "detect-faces.mode=\(mode)")) }
        if !overrides.isEmpty { pipeline = try pipeline.overriding(overrides) }
        return try pipeline.compile(modelsDirectory: Fixtures.model("")).int8Plans()
    }

    /// `faces` (accurate mode, canvas-arithmetic: static-int8) runs
    /// YuNet-s's first layer, every 1×1 convolution and every depthwise one
    /// but the heads' on bytes; with `int8`, the first layer and every 1×1
    /// convolution; with the int8 first layer alone, only that layer; in
    /// fp32, nothing. In pyramid mode the same option plans BlazeFace's
    /// canvases: first layer and block projections.
    @Test func theInt8StepsFollowTheCanvasArithmetic() throws {
        let staticInt8 = try Self.int8Plans("faces")
        let bytes = try #require(staticInt8.first { $0.subject.contains("yunet_s.weights searching the picture") }, "\(staticInt8)")
        #expect(staticInt8.count == 1 && bytes.subject.contains("static-int8"), "\(staticInt8.map(\.line))")
        #expect(bytes.int8 == [Int8Plan.Kind(kind: "CONV_2D 3x3/2", count: 1), Int8Plan.Kind(kind: "CONV_2D 1x1", count: 17),
                               Int8Plan.Kind(kind: "DEPTHWISE_CONV_2D 3x3/1", count: 14)], "\(bytes.line)")
        #expect(bytes.convolutions - bytes.int8Count == 3, "the three heads' depthwise layers stay fp32: \(bytes.line)")

        let int8 = try Self.int8Plans("faces", arithmetic: "int8")
        let yunet = try #require(int8.first { $0.subject.contains("yunet_s.weights searching the picture") }, "\(int8)")
        #expect(int8.count == 1, "only the search's plan has int8 steps: \(int8.map(\.line))")
        #expect(yunet.int8.first == Int8Plan.Kind(kind: "CONV_2D 3x3/2", count: 1), "\(yunet.line)")
        let pointwise = try #require(yunet.int8.first { $0.kind == "CONV_2D 1x1" }, "\(yunet.line)")
        #expect(pointwise.count == 17, "every 1×1 convolution: \(yunet.line)")
        #expect(yunet.int8Count < yunet.convolutions, "depthwise layers stay fp32: \(yunet.line)")

        let firstLayer = try Self.int8Plans("faces", arithmetic: "int8-first-layer")
        #expect(firstLayer.map(\.int8) == [[Int8Plan.Kind(kind: "CONV_2D 3x3/2", count: 1)]], "\(firstLayer.map(\.line))")
        #expect(try Self.int8Plans("faces", arithmetic: "float32").isEmpty)
        #expect(try Self.int8Plans("whole-frame").isEmpty, "whole-frame has no search pass")

        let pyramid = try Self.int8Plans("faces", mode: "pyramid")
        let canvas = try #require(pyramid.first { $0.subject.contains("pyramid canvases") }, "\(pyramid)")
        #expect(pyramid.count == 1)
        #expect(canvas.int8.first == Int8Plan.Kind(kind: "CONV_2D 5x5/2", count: 1), "\(canvas.line)")
        let projections = try #require(canvas.int8.first { $0.kind == "CONV_2D 1x1" }, "\(canvas.line)")
        #expect(projections.count > 1 && canvas.int8Count < canvas.convolutions, "\(canvas.line)")
    }

    /// `facepipe describe faces` prints those plans' lines; no pipeline's
    /// fixed rationale claims an arithmetic.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func describeSaysWhatThePlanRunsInInt8() throws {
        let result = try ChildProcess.run(FacepipeProcess.binary.path, ["describe", "faces"],
                                          environment: ["FACEPIPE_MODELS": Fixtures.model("").path])
        let text = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0, "\(text)")
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
