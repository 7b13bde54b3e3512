import Pipeline

/// A set of named pipelines, the first being the default: what `facepipe
/// pipelines` lists and `run`, `describe` look names up in.
///
/// facepipe's own pipelines are ``builtIn``; a tool built on the command
/// line library (`FacepipeCommand.main(adding:)`) passes its pipelines to
/// ``adding(_:)``, which puts them after the built-in ones. Names are
/// unique: a pipeline whose name is already taken is an error, never a
/// silent replacement.
public struct PipelineRegistry: Sendable {
    /// Every pipeline, the default first.
    public let all: [Pipeline]

    /// The pipelines in `pipelines`, in that order; two with one name are an error.
    public init(_ pipelines: [Pipeline]) throws(PipelineRegistryError) {
        var names: [String] = []
        for pipeline in pipelines {
            guard !names.contains(pipeline.name) else { throw .duplicateName(pipeline.name) }
            guard !pipeline.name.isEmpty else { throw .emptyName(summary: pipeline.summary) }
            names.append(pipeline.name)
        }
        all = pipelines
    }

    /// facepipe's own pipelines, `faces` (the default) first. Adding a
    /// built-in pipeline means adding a file to this folder and naming it here.
    public static let builtIn: PipelineRegistry = {
        do {
            return try PipelineRegistry([
                Pipelines.faces,
                Pipelines.trainingAnnotations,
                Pipelines.passport,
                Pipelines.fastBoxes,
                Pipelines.wholeFrame,
                Pipelines.uprightPNG,
                Pipelines.anonymize,
                Pipelines.faceCrops,
                Pipelines.detect(),
            ])
        } catch {
            // Names are literals in this folder; PipelineRegistryTests checks them.
            preconditionFailure("facepipe's built-in pipelines: \(error)")
        }
    }()

    /// These pipelines followed by `pipelines`: a name this registry already
    /// has is ``PipelineRegistryError/nameTaken(_:)``, two of `pipelines`
    /// with one name ``PipelineRegistryError/duplicateName(_:)``.
    public func adding(_ pipelines: [Pipeline]) throws(PipelineRegistryError) -> PipelineRegistry {
        for pipeline in pipelines where names.contains(pipeline.name) {
            throw .nameTaken(pipeline.name, taken: names)
        }
        return try PipelineRegistry(all + pipelines)
    }

    public var names: [String] { all.map(\.name) }

    /// The pipeline called `name`, or a usage error listing the known names.
    public func named(_ name: String) throws(PipelineError) -> Pipeline {
        guard let pipeline = all.first(where: { $0.name == name }) else {
            throw .unknownPipeline(name: name, available: names)
        }
        return pipeline
    }
}

/// Namespace of the named pipeline definitions (one file each).
public enum Pipelines {}
