import Foundation
import Pipeline
import Pipelines
import Testing

/// `--set STAGE.OPTION=VALUE` and its short forms: every option `describe`
/// prints can be set, by the stage's own table, and only changes what it names.
@Suite struct StageOptionTests {
    static let noModels = URL(fileURLWithPath: "/nonexistent-models")

    /// Every stage definition of a pipeline, per-face stages included.
    static func definitions(_ pipeline: Pipeline) -> [StageDefinition] {
        func all(_ definition: StageDefinition) -> [StageDefinition] { [definition] + definition.children.flatMap(all) }
        return pipeline.stages.flatMap(all)
    }

    /// Whether `pipeline` passes its stages' own checks (a missing model is not a failed check).
    static func validates(_ pipeline: Pipeline) -> Bool {
        do {
            _ = try pipeline.compile(modelsDirectory: noModels)
            return true
        } catch {
            if case .invalidOption = error { return false }
            return true
        }
    }

    /// Texts tried as "another valid value" for an option, the first that
    /// differs from the current one, parses and validates is used.
    static let otherValues = ["false", "true", "sparse", "fast", "33px", "0.25", "0.5", "3", "7", "224", "auto", "boxes", "none", "png",
                              "pixelate", "other", "int8", "static-int8", "int8-first-layer", "float32", "all", "scored"]

    @Test(arguments: PipelineRegistry.builtIn.names)
    func everyOptionDescribePrintsRoundTrips(_ name: String) throws {
        let pipeline = try PipelineRegistry.builtIn.named(name)
        let fingerprints = pipeline.fingerprints
        let definitions = Self.definitions(pipeline)
        for definition in definitions where definitions.filter({ $0.name == definition.name }).count == 1 {
            for option in definition.options {
                let same = try pipeline.overriding([StageOverride(stage: definition.name, option: option.name, value: option.value)])
                #expect(same.fingerprints == fingerprints, "\(definition.name).\(option.name)=\(option.value) changes the stage")
                let changed = Self.otherValues.lazy.filter { $0 != option.value }.compactMap { value -> Pipeline? in
                    guard let other = try? pipeline.overriding([StageOverride(stage: definition.name, option: option.name, value: value)]),
                          Self.validates(other) else { return nil }
                    return other
                }.first
                guard let changed else {
                    Issue.record("no other valid value found for \(definition.name).\(option.name)")
                    continue
                }
                #expect(changed.fingerprints != fingerprints, "\(definition.name).\(option.name)")
                let shown = Self.definitions(changed).first { $0.name == definition.name }?.options.first { $0.name == option.name }
                #expect(shown != nil && shown?.value != option.value, "describe shows the new \(definition.name).\(option.name)")
            }
        }
    }

    @Test func anUnknownStageListsThePipelinesStages() throws {
        #expect(throws: PipelineError.unknownStage(name: "detect", pipeline: "faces", available: [
            "decode", "orient", "detect-faces", "filter-confidence", "for-each-face", "landmarks", "pose", "annotate", "write-outputs",
        ])) {
            try Pipelines.faces.overriding([StageOverride(stage: "detect", option: "mode", value: "fast")])
        }
    }

    @Test func anUnknownOptionListsTheStagesOptions() throws {
        let error = #expect(throws: PipelineError.self) {
            try Pipelines.faces.overriding([StageOverride(stage: "landmarks", option: "irises", value: "false")])
        }
        #expect(error?.description == "stage landmarks has no option irises (did you mean iris?); options: iris, contours, mlkit-landmarks, ibug68, vision-regions")
        let none = #expect(throws: PipelineError.self) {
            try Pipelines.faces.overriding([StageOverride(stage: "orient", option: "angle", value: "90")])
        }
        #expect(none?.description == "stage orient has no options to set (asked for angle)")
    }

    @Test func anUnparsableValueSaysWhatItExpects() throws {
        let cases: [(StageOverride, String)] = [
            (.minFaceSize("big"), "stage detect-faces: option min-face-size expects pixels like 20px or a fraction of the image width like 0.05, got \"big\""),
            (.detectorMode("quick"), "stage detect-faces: option mode expects fast, accurate, pyramid, sparse or yunet, got \"quick\""),
            (.minConfidence("high"), "stage filter-confidence: option at-least expects a number like 0.5, got \"high\""),
            (StageOverride(stage: "landmarks", option: "iris", value: "no"), "stage landmarks: option iris expects true or false, got \"no\""),
            (StageOverride(stage: "annotate", option: "thickness", value: "thick"), "stage annotate: option thickness expects auto or a whole number, got \"thick\""),
        ]
        for (override, message) in cases {
            let error = #expect(throws: PipelineError.self) { try Pipelines.faces.overriding([override]) }
            #expect(error?.description == message)
        }
    }

    @Test func aParsableValueIsCheckedByTheStagesOwnRules() throws {
        let pipeline = try Pipelines.faces.overriding([.minConfidence("1.5")])
        #expect(throws: PipelineError.invalidOption(stage: "filter-confidence", option: "at-least", reason: "must be within 0…1, got 1.5")) {
            try pipeline.compile(modelsDirectory: Self.noModels)
        }
        let thick = try Pipelines.faces.overriding([StageOverride(stage: "annotate", option: "thickness", value: "100")])
        #expect(!Self.validates(thick))
    }

    @Test func theSetSyntaxIsStageDotOptionEqualsValue() throws {
        #expect(try StageOverride(parsing: "detect-faces.min-face-size=40px") == .minFaceSize("40px"))
        #expect(try StageOverride(parsing: "filter.reason=a=b.c") == StageOverride(stage: "filter", option: "reason", value: "a=b.c"))
        for bad in ["detect-faces=40px", "detect-faces.min-face-size", ".mode=fast", "detect-faces.=fast"] {
            #expect(throws: PipelineError.self) { try StageOverride(parsing: bad) }
        }
    }

    @Test func anOverrideInsideForEachFaceApplies() throws {
        let pipeline = try Pipelines.faces.overriding([StageOverride(stage: "landmarks", option: "iris", value: "false")])
        let perFace = try #require(pipeline.stages.first { $0.name == "for-each-face" })
        let landmarks = try #require(perFace.children.first { $0.name == "landmarks" })
        #expect(landmarks.options.first { $0.name == "iris" }?.value == "false")
        #expect(landmarks.models == [.faceMesh], "no iris model without iris")
        let index = try #require(pipeline.stages.firstIndex { $0.name == "for-each-face" })
        #expect(pipeline.fingerprints[..<index] == Pipelines.faces.fingerprints[..<index])
        #expect(pipeline.fingerprints[index] != Pipelines.faces.fingerprints[index])
        #expect(pipeline.overrides == [StageOverride(stage: "landmarks", option: "iris", value: "false")])
    }

    @Test func minFaceSizeChangesDetectionAndNothingBeforeIt() throws {
        let pipeline = try Pipelines.faces.overriding([.minFaceSize("40px")])
        let index = try #require(pipeline.stages.firstIndex { $0.name == "detect-faces" })
        #expect(pipeline.stages[index].options.first { $0.name == "min-face-size" }?.value == "40px")
        #expect(pipeline.fingerprints[..<index] == Pipelines.faces.fingerprints[..<index])
        #expect(pipeline.fingerprints[index] != Pipelines.faces.fingerprints[index])
        #expect(try Pipelines.faces.overriding([.minFaceSize("20px")]).fingerprints == Pipelines.faces.fingerprints)
    }

    @Test func anOverrideAppliesToEveryStageOfThatName() throws {
        let pipeline = Pipeline("two-filters") {
            Decode()
            Orient()
            DetectFaces()
            Filter("wide") { face, _ in face.box.width > 30 }
            Filter("tall") { face, _ in face.box.height > 30 }
            Annotate()
            WriteOutputs()
        }
        let changed = try pipeline.overriding([StageOverride(stage: "filter", option: "reason", value: "too small")])
        #expect(changed.stages.filter { $0.name == "filter" }.map { $0.options[1].value } == ["too small", "too small"])
    }

    @Test func aStageOfYourOwnTakesOptionsFromItsTable() throws {
        let pipeline = try readmePipeline.overriding([StageOverride(stage: "drop-small-faces", option: "min-width", value: "120")])
        #expect(pipeline.stages[3].options == [StageDefinition.Option("min-width", "120.0")])
        #expect(pipeline.fingerprints[3] != readmePipeline.fingerprints[3])
    }
}
