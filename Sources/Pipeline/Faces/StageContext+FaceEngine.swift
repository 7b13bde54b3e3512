/// A worker's face engine, made by the run's ``FaceEngineFactory``.
struct FaceEngineResource: WorkerResource {
    let engine: any FaceEngine

    init(shared: SharedResources) throws {
        engine = try shared.faceEngineFactory.make(shared)
    }
}

extension StageContext {
    /// This worker's face engine, created on first use.
    public func faceEngine() throws -> any FaceEngine {
        try resource(FaceEngineResource.self).engine
    }
}
