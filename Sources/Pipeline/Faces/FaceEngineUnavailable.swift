/// A face stage ran but the run has no face engine configured.
public struct FaceEngineUnavailable: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "no face inference engine is configured for this run (RunConfiguration.faceEngine)"
    }
}
