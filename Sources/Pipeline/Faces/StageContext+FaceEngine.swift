extension StageContext {
    /// This worker's face engine, created on first use.
    public func faceEngine() throws -> any FaceEngine {
        guard let factory = shared.faceEngineFactory else { throw FaceEngineUnavailable() }
        return try workerResource("facepipe.face-engine") { try factory.make(shared) }
    }
}
