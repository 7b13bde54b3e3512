/// Hands the upright pixels to the outputs without drawing: for pipelines
/// that only convert (decode → orient → PNG) or that draw nothing.
public struct PassPixels: Stage {
    public init() {}
    public var definition: StageDefinition { StageDefinition("pass-pixels") }

    public func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Annotated> {
        frame.advanced()
    }
}
