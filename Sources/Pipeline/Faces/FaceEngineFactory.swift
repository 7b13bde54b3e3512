/// How a worker obtains its ``FaceEngine``. Part of the run configuration,
/// not of the pipeline: any engine that gives the same results may be used.
public struct FaceEngineFactory: Sendable {
    let make: @Sendable (SharedResources) throws -> any FaceEngine

    /// - Parameter make: builds one worker's engine; load files once through
    ///   models come loaded in `SharedResources.models`.
    public init(_ make: @escaping @Sendable (SharedResources) throws -> any FaceEngine) {
        self.make = make
    }
}
