extension Unicode.Scalar {
    /// A scalar that can break a line or drive a terminal when text from an
    /// input is written out: C0 controls, DEL, C1 controls (NEL among them)
    /// and the line and paragraph separators U+2028, U+2029. Each format's
    /// escaping (``TerminalText``, `YAMLText`, `LinePath`, ``JSONText``'s C0)
    /// escapes at least these.
    package var isControlOrLineBreak: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension String {
    /// The text with each scalar `needsEscape` accepts replaced by
    /// `escape(scalar)`; the text itself when none does. The loop every
    /// format's escaping shares (``TerminalText``, `LinePath`).
    package func escapingScalars(where needsEscape: (Unicode.Scalar) -> Bool, as escape: (Unicode.Scalar) -> String) -> String {
        guard unicodeScalars.contains(where: needsEscape) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if needsEscape(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
