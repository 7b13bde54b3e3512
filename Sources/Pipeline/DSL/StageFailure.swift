/// A stage threw while processing an entry: the manifest's `error` column
/// shows `"<stage>: <reason>"`.
public struct StageFailure: Error, Sendable, CustomStringConvertible {
    public let stage: String
    public let reason: String

    public init(stage: String, reason: String) {
        self.stage = stage
        self.reason = reason
    }

    public init(stage: String, error: any Error) {
        self.stage = stage
        if let failure = error as? StageFailure {
            self.reason = failure.description
        } else {
            self.reason = String(describing: error)
        }
    }

    public var description: String { "\(stage): \(reason)" }
}
