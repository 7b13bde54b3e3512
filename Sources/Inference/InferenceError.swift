/// Why a model cannot be prepared or run: what went wrong (`kind`), in
/// which operator of the file, and at which re-planned input shape.
///
/// Tests and callers match `kind` (and `operator`), never the text; the
/// `description` is one sentence that names the file's operator and tensors,
/// e.g. `operator 3 (CONV_2D): weights tensor 2 'w' [8, 1, 1, 4] expect 4
/// input channels; the input has 8`.
public struct InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var kind: Kind
    /// The operator being prepared (nil: the check is not about one operator).
    public var `operator`: OperatorReference?
    /// The input shape the model was being planned at instead of its declared one.
    public var inputShape: [Int]?

    public init(_ kind: Kind, operator reference: OperatorReference? = nil, inputShape: [Int]? = nil) {
        self.kind = kind
        self.operator = reference
        self.inputShape = inputShape
    }

    public var description: String {
        var sentence = kind.description
        if let reference = self.operator { sentence = "\(reference): \(sentence)" }
        if let inputShape { sentence = "cannot plan the model at input shape \(inputShape): \(sentence)" }
        return sentence
    }
}
