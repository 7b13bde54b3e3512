/// Text for a terminal: every message that holds something read from an
/// input, a run folder or a manifest (entry and archive names, reasons,
/// paths) passes through ``escaped(_:)`` before it is printed, so a name
/// cannot move the cursor, clear the screen, set the window title or write
/// the clipboard (OSC 52), and cannot start a line of its own.
package enum TerminalText {
    /// `text` with every control character shown as an escape: `\n`, `\r`,
    /// `\t`, and `\u{1B}`-style for the rest of C0, DEL, C1 (U+0080–U+009F)
    /// and the Unicode line and paragraph separators and bidi controls.
    /// Printable text, backslashes included, is unchanged.
    package static func escaped(_ text: String) -> String {
        text.escapingScalars(where: needsEscape) { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
    }

    /// C0 controls, DEL, C1 controls, U+2028/U+2029 and the bidi embedding,
    /// override and isolate controls (U+202A–U+202E, U+2066–U+2069).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isControlOrLineBreak || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
