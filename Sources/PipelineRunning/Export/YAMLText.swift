import Pipeline

/// Text from a run folder inside a YAML file (`dataset.yaml`): a
/// double-quoted scalar whose every line break, control character and
/// character YAML does not allow in a stream is an escape, so the text
/// can neither end the line it is on nor become a key of its own.
enum YAMLText {
    static func quoted(_ text: String) -> String {
        JSONText.quoted(text, alsoEscaping: needsEscape)
    }

    /// C0 controls, DEL, C1 controls (NEL U+0085 is a YAML 1.1 line
    /// break), the line and paragraph separators, the byte order mark and
    /// the noncharacters U+FFFE/U+FFFF.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isControlOrLineBreak || [0xFEFF, 0xFFFE, 0xFFFF].contains(scalar.value)
    }
}
