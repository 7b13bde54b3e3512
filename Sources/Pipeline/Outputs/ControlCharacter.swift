extension Unicode.Scalar {
    /// A scalar that can break a line or drive a terminal when text from an
    /// input is written out: C0 controls, DEL, C1 controls (NEL among them)
    /// and the line and paragraph separators U+2028, U+2029. Each format's
    /// escaping (``TerminalText``, `YAMLText`, `LinePath`, ``JSONText``'s C0)
    /// escapes at least these.
    var isControlOrLineBreak: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
