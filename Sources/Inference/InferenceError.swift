/// Why a model cannot be prepared or run.
public struct InferenceError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
