import Foundation

/// A minimal JSON writer with fixed float formatting and comma bookkeeping.
package struct JSONText {
    package var text = ""
    private var needsComma: [Bool] = [false]

    package init() {}

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }
    package mutating func open(_ bracket: String) { separate(); text += bracket; needsComma.append(false) }
    package mutating func close(_ bracket: String) { needsComma.removeLast(); text += bracket }
    package mutating func key(_ k: String) { separate(); text += JSONText.quoted(k) + ":"; needsComma[needsComma.count - 1] = false }
    package mutating func string(_ s: String) { separate(); text += JSONText.quoted(s) }
    package mutating func int(_ i: Int) { separate(); text += String(i) }
    /// A number already written as JSON text.
    mutating func raw(_ number: String) { separate(); text += number }
    mutating func bool(_ b: Bool) { separate(); text += b ? "true" : "false" }
    mutating func null() { separate(); text += "null" }
    package mutating func fixed(_ f: Float, _ decimals: Int) { separate(); FixedFormat.append(f, decimals: decimals, to: &text) }
    mutating func floats(_ values: [Float], _ decimals: Int) {
        open("[")
        for v in values { fixed(v, decimals) }
        close("]")
    }
    mutating func points(_ values: [(Float, Float)], _ decimals: Int) {
        open("[")
        for (x, y) in values { floats([x, y], decimals) }
        close("]")
    }
    package mutating func array<T>(_ items: [T], _ body: (inout JSONText, T) -> Void) {
        open("[")
        for item in items { body(&self, item) }
        close("]")
    }

    /// `s` as a JSON string; scalars `alsoEscaping` accepts are written as
    /// `\uXXXX` too (YAML's double-quoted scalars take the same escapes: ``YAMLText``).
    package static func quoted(_ s: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || alsoEscaping(scalar): out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
