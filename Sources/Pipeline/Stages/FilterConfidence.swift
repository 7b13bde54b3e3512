/// Keeps faces whose detector confidence is at least `threshold`; the others
/// stay in the record as rejected ("confidence 0.42 < 0.70").
public struct FilterConfidence: Stage {
    public var threshold: Float

    public init(atLeast threshold: Float) {
        self.threshold = threshold
    }

    public static var optionTable: [StageOption<Self>] { [StageOption("at-least", \.threshold, decimals: 4)] }

    public var definition: StageDefinition { StageDefinition("filter-confidence", optionsOf: self) }

    public var caching: StageCaching { .records }

    public func validate() throws(PipelineError) {
        guard threshold >= 0, threshold <= 1 else {
            throw .invalidOption(stage: "filter-confidence", option: "at-least", reason: "must be within 0…1, got \(threshold)")
        }
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let limit = FixedFormat.string(threshold, decimals: 2)
        for i in frame.record.faces.indices where frame.record.faces[i].isKept && frame.record.faces[i].confidence < threshold {
            frame.record.faces[i].rejection =
                "confidence \(FixedFormat.string(frame.record.faces[i].confidence, decimals: 2)) < \(limit)"
        }
        return frame
    }
}
