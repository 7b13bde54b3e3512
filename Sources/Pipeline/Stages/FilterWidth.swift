/// Keeps faces whose box is at least `minWidth` pixels wide; the others stay
/// in the record as rejected ("narrower than 40 px"). Unlike `DetectFaces`'
/// `minFaceSize`, it does not change how finely detection searches.
public struct FilterWidth: Stage {
    public var minWidth: Float

    public init(atLeast minWidth: Float) {
        self.minWidth = minWidth
    }

    public static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }

    public var definition: StageDefinition { StageDefinition("filter-width", optionsOf: self) }

    public var caching: StageCaching { .records }

    public func validate() throws(PipelineError) {
        guard minWidth >= 0, minWidth.isFinite else {
            throw .invalidOption(stage: "filter-width", option: "min-width", reason: "must be a width ≥ 0 px, got \(minWidth)")
        }
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let limit = FixedFormat.string(minWidth, decimals: 0)
        frame.reject(reason: "narrower than \(limit) px") { $0.box.width < minWidth }
        return frame
    }
}
