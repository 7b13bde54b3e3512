import Foundation
import Pipeline
import Pipelines
import Testing

/// A stage whose definition forgets one of its properties.
struct Forgetful: Stage {
    var hidden: Float
    var definition: StageDefinition { StageDefinition("forgetful") }
    var caching: StageCaching { .records }
    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Upright> { frame }
}

@Suite struct StageFingerprintTests {
    static func pipeline(hidden: Float) -> Pipeline {
        Pipeline("forgetful") {
            DecodePPM()
            AsUpright()
            Forgetful(hidden: hidden)
            PassPixels()
            WriteOutputs(images: .none, faceJSON: false)
        }
    }

    @Test func aPropertyTheDefinitionForgetsStillChangesTheFingerprint() throws {
        let models = URL(fileURLWithPath: "/nonexistent-models")
        let a = try Self.pipeline(hidden: 1).compile(modelsDirectory: models)
        let b = try Self.pipeline(hidden: 2).compile(modelsDirectory: models)
        let again = try Self.pipeline(hidden: 1).compile(modelsDirectory: models)
        #expect(a.steps[2].fingerprint != b.steps[2].fingerprint)
        #expect(a.steps.map(\.fingerprint) == again.steps.map(\.fingerprint))
        #expect(a.steps[..<2].map(\.fingerprint) == b.steps[..<2].map(\.fingerprint), "stages before it are unaffected")
    }

    /// The leaf stages of a pipeline value (chains and per-face blocks opened).
    static func leafStages(_ value: Any) -> [any Stage] {
        Mirror(reflecting: value).children.flatMap { child -> [any Stage] in
            let name = String(describing: type(of: child.value))
            guard let stage = child.value as? any Stage, !name.hasPrefix("_StageChain<"), !name.hasPrefix("ForEachFace<") else {
                return leafStages(child.value)
            }
            return [stage]
        }
    }

    /// Labels of a stage's stored properties; its `options` or
    /// `configuration` struct is opened (those hold the options by name).
    static func leafLabels(_ value: Any) -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            if child.label == "options" || child.label == "configuration" { return leafLabels(child.value) }
            return [child.label ?? ""]
        }
    }

    static func kebab(_ label: String) -> String {
        label.reduce(into: "") { text, character in
            if character.isUppercase { text += "-" + character.lowercased() } else { text.append(character) }
        }
    }

    /// `describe` shows every option of the named pipelines' stages: each
    /// stored property appears among its definition's options (by name, or
    /// for detection and tracking settings under their own names).
    @Test(arguments: PipelineRegistry.builtIn.all.map(\.name))
    func describeListsEveryStoredOption(_ name: String) throws {
        let pipeline = try PipelineRegistry.builtIn.named(name)
        let stages = Self.leafStages(pipeline)
        #expect(stages.count >= pipeline.stages.count)
        for stage in stages {
            let options = Set(stage.definition.options.map(\.name))
            let aliases = ["threshold": "at-least", "max-pitch": "max-pitch-rad", "max-yaw": "max-yaw-rad", "max-roll": "max-roll-rad",
                           "min-io-u": "min-iou", "face-j-s-o-n": "face-json"]
            for label in Self.leafLabels(stage) {
                let option = aliases[Self.kebab(label)] ?? Self.kebab(label)
                #expect(options.contains(option), "\(stage.definition.name): property \(label) is not in describe (\(options.sorted()))")
            }
        }
    }
}
