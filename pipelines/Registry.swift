import Pipeline

/// The named pipelines `facepipe pipelines` lists. Adding a pipeline means
/// adding a file to this folder and naming it here.
public enum PipelineRegistry {
    /// Every registered pipeline, the default first.
    public static let all: [Pipeline] = [
        Pipelines.faces,
        Pipelines.trainingAnnotations,
        Pipelines.passport,
        Pipelines.fastBoxes,
        Pipelines.wholeFrame,
        Pipelines.uprightPNG,
        Pipelines.anonymize,
        Pipelines.faceCrops,
        Pipelines.detect(),
    ]

    public static var names: [String] { all.map(\.name) }

    /// The pipeline called `name`, or a usage error listing the known names.
    public static func named(_ name: String) throws(PipelineError) -> Pipeline {
        guard let pipeline = all.first(where: { $0.name == name }) else {
            throw .unknownPipeline(name: name, available: names)
        }
        return pipeline
    }
}

/// Namespace of the named pipeline definitions (one file each).
public enum Pipelines {}
