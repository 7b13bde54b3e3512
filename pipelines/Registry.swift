import Pipeline

/// The named pipelines `facepipe pipelines` lists. Adding a pipeline means
/// adding a file to this folder and naming it here.
public enum PipelineRegistry {
    public static let names: [String] = []
}
