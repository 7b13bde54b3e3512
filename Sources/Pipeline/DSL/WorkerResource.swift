/// A worker resource that is its own key: `context.resource(ImageDecoder.self)`
/// makes an `ImageDecoder` with ``init(shared:)`` once per worker.
public protocol WorkerResource: StageResourceKey where Value == Self {
    init(shared: SharedResources) throws
}

extension WorkerResource {
    public static func makeValue(shared: SharedResources) throws -> Self {
        try Self(shared: shared)
    }
}
