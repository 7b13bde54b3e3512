import Foundation
import Testing
import _TestSupport
import Pipeline

/// `FixedFormat` must print exactly what `printf("%.*f")` prints (manifest
/// and JSON bytes depend on it), only faster.
@Suite struct FixedFormatTests {
    static func printf(_ value: Float, _ decimals: Int) -> String {
        if value.isNaN { return "nan" }  // printf says "-nan" for a negative NaN; the contract is one spelling
        let text = String(format: "%.\(decimals)f", Double(value))
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }

    @Test(arguments: 0...6)
    func matchesPrintfOnRandomValues(decimals: Int) {
        var random = SplitMix64(seed: UInt64(100 + decimals))
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            // Magnitudes from 1e-6 to 1e7, both signs, plus raw bit patterns.
            let exponent = Float(random.next() % 1_300) / 100 - 6
            var value = Float(pow(10, Double(exponent))) * (Float(random.next() % 10_000) / 10_000)
            if random.next() % 2 == 0 { value = -value }
            if random.next() % 8 == 0 { value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next())) }
            let expected = Self.printf(value, decimals)
            let actual = FixedFormat.string(value, decimals: decimals)
            if actual != expected, mismatches.count < 5 { mismatches.append("\(value.bitPattern): \(actual) vs \(expected)") }
        }
        #expect(mismatches.isEmpty)
    }

    @Test(arguments: [
        (Float(0.125), 2, "0.12"), (Float(0.375), 2, "0.38"), (Float(2.5), 0, "2"), (Float(3.5), 0, "4"),
        (Float(-0.001), 2, "0.00"), (Float(-0.0), 1, "0.0"), (Float(0), 0, "0"), (Float(-1.5), 0, "-2"),
        (Float(123.456), 1, "123.5"), (Float(-7), 3, "-7.000"), (Float(0.05), 4, "0.0500"),
        (Float.nan, 2, "nan"), (Float.infinity, 2, "inf"), (-Float.infinity, 2, "-inf"),
        (Float.greatestFiniteMagnitude, 2, printf(Float.greatestFiniteMagnitude, 2)),
        (Float(1e-30), 20, printf(1e-30, 20)),
    ] as [(Float, Int, String)])
    func knownValues(value: Float, decimals: Int, expected: String) {
        #expect(FixedFormat.string(value, decimals: decimals) == expected)
        var text = "x="
        FixedFormat.append(value, decimals: decimals, to: &text)
        #expect(text == "x=" + expected)
    }
}
