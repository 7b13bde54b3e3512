import Foundation

/// Fixed-point text for floats, identical on every run and machine:
/// `decimals` digits after the point, no exponent, "-0" printed as "0",
/// non-finite values as "nan"/"inf"/"-inf".
enum FixedFormat {
    static func string(_ value: Float, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let text = String(format: "%.\(decimals)f", Double(value))
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) {
            return String(text.dropFirst())
        }
        return text
    }
}
