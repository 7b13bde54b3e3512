/// Text from a run folder inside a YAML file (`dataset.yaml`): a
/// double-quoted scalar whose every line break, control character and
/// character YAML does not allow in a stream is an escape, so the text
/// can neither end the line it is on nor become a key of its own.
enum YAMLText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u" + hex4(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// C0 controls, DEL, C1 controls (NEL U+0085 is a YAML 1.1 line
    /// break), the line and paragraph separators, the byte order mark and
    /// the noncharacters U+FFFE/U+FFFF.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
