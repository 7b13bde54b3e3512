import Foundation

/// Fixed-point text for floats, identical on every run and machine:
/// `decimals` digits after the point, no exponent, "-0" printed as "0",
/// non-finite values as "nan"/"inf"/"-inf". The digits are exactly
/// `printf("%.*f")`'s (correctly rounded, ties to even).
package enum FixedFormat {
    private static let powersOfTen: [Double] = (0...12).map { pow(10, Double($0)) }

    package static func string(_ value: Float, decimals: Int) -> String {
        var text = ""
        append(value, decimals: decimals, to: &text)
        return text
    }

    /// Appends the text of `value` to `text` (the manifest and the JSON
    /// writer format hundreds of numbers per face, so this avoids
    /// `String(format:)` and its Foundation round trip).
    package static func append(_ value: Float, decimals: Int, to text: inout String) {
        guard value.isFinite else {
            text += value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf")
            return
        }
        // A Float has 24 significant bits and 10^d = 5^d·2^d adds 2.33·d, so
        // for d ≤ 12 the product below is exact in a Double and rounding it
        // half-to-even is exactly the correctly rounded decimal printf gives.
        guard (0...12).contains(decimals) else { return appendFormatted(value, decimals: decimals, to: &text) }
        let scaled = (Double(value) * powersOfTen[decimals]).rounded(.toNearestOrEven)
        guard abs(scaled) < 1e18 else { return appendFormatted(value, decimals: decimals, to: &text) }
        let integer = Int64(scaled)
        // Written right to left into a stack buffer (no arrays: the JSON writer
        // formats thousands of numbers per picture): at most 19 digits, the
        // point, a padding zero and the sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var magnitude = integer.magnitude
            var start = buffer.count
            var written = 0
            // Digits, least significant first, padded so there is one before the point.
            while magnitude > 0 || written <= decimals {
                if written == decimals && decimals > 0 { start -= 1; buffer[start] = 0x2E }
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                written += 1
            }
            if integer < 0 { start -= 1; buffer[start] = 0x2D }  // "-0.00" never happens: a zero integer has no sign
            text += String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// Seconds with 6 decimals (microseconds, rounded half to even), from
    /// the Double itself: a Float would lose digits after a few minutes.
    package static func seconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return seconds.isNaN ? "nan" : (seconds > 0 ? "inf" : "-inf") }
        let micro = Int64((seconds * 1e6).rounded(.toNearestOrEven))
        let magnitude = micro.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (micro < 0 ? "-" : "") + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// The slow general path (huge magnitudes, more than 12 decimals).
    private static func appendFormatted(_ value: Float, decimals: Int, to text: inout String) {
        let formatted = String(format: "%.\(decimals)f", Double(value))
        if formatted.hasPrefix("-"), formatted.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) {
            text += formatted.dropFirst()
        } else {
            text += formatted
        }
    }
}
