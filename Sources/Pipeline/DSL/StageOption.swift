/// One option of a stage `S`, named as `describe` prints it: reads the
/// option's text from a stage and sets it from text (`--set`). A stage
/// lists its options once, in ``Stage/optionTable``, and builds its
/// ``StageDefinition`` from the same list, so the names exist once.
///
/// ```swift
/// static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }
/// var definition: StageDefinition { StageDefinition("drop-small-faces", optionsOf: self) }
/// ```
public struct StageOption<S> {
    /// The name `describe` prints and `--set STAGE.OPTION=VALUE` takes.
    public let name: String
    /// What a valid text looks like (for the error about one that is not).
    public let expectedText: String
    let read: (S) -> String
    let assign: (inout S, String) -> Bool

    /// The option stored at `keyPath`, in its value's text form (``StageOptionValue``).
    public init<Value: StageOptionValue>(_ name: String, _ keyPath: WritableKeyPath<S, Value>) {
        self.name = name
        expectedText = Value.expectedText
        read = { $0[keyPath: keyPath].optionText }
        assign = { stage, text in
            guard let value = Value(optionText: text) else { return false }
            stage[keyPath: keyPath] = value
            return true
        }
    }

    /// A number shown with a fixed number of decimals (`0.7000`); any number parses.
    public init(_ name: String, _ keyPath: WritableKeyPath<S, Float>, decimals: Int) {
        self.name = name
        expectedText = Float.expectedText
        read = { FixedFormat.string($0[keyPath: keyPath], decimals: decimals) }
        assign = { stage, text in
            guard let value = Float(optionText: text) else { return false }
            stage[keyPath: keyPath] = value
            return true
        }
    }

    /// The option's current text in `stage`.
    public func text(of stage: S) -> String { read(stage) }
}
