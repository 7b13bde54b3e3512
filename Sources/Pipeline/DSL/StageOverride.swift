/// A stage option set for one run (`--set STAGE.OPTION=VALUE`): the stage
/// and option as `describe` names them, and the value as text, parsed by
/// the option's own ``StageOptionValue``. ``Pipeline/overriding(_:)``
/// applies it to every stage of that name.
public struct StageOverride: Sendable, Hashable, Codable, CustomStringConvertible {
    public var stage: String
    public var option: String
    public var value: String

    public init(stage: String, option: String, value: String) {
        self.stage = stage
        self.option = option
        self.value = value
    }

    /// Parses `STAGE.OPTION=VALUE` (the value may contain `=` and `.`).
    public init(parsing text: String) throws(PipelineError) {
        guard let equals = text.firstIndex(of: "="), let dot = text[..<equals].firstIndex(of: "."),
              dot > text.startIndex, text.index(after: dot) < equals else {
            throw .invalidRunConfiguration("--set expects STAGE.OPTION=VALUE (e.g. detect-faces.min-face-size=40px), got \(text)")
        }
        self.init(stage: String(text[..<dot]), option: String(text[text.index(after: dot)..<equals]),
                  value: String(text[text.index(after: equals)...]))
    }

    /// `--min-face-size SIZE`: `detect-faces.min-face-size` (`20px` or `0.05`).
    public static func minFaceSize(_ size: String) -> StageOverride {
        StageOverride(stage: "detect-faces", option: "min-face-size", value: size)
    }

    /// `--min-confidence X`: `filter-confidence.at-least`.
    public static func minConfidence(_ threshold: String) -> StageOverride {
        StageOverride(stage: "filter-confidence", option: "at-least", value: threshold)
    }

    /// `--mode fast|accurate|sparse|yunet`: `detect-faces.mode`.
    public static func detectorMode(_ mode: String) -> StageOverride {
        StageOverride(stage: "detect-faces", option: "mode", value: mode)
    }

    /// `STAGE.OPTION=VALUE`.
    public var description: String { "\(stage).\(option)=\(value)" }
}
