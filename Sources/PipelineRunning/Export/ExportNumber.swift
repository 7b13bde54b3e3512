import Pipeline

/// Numbers in export files: fixed decimals through the run's own formatter
/// (``FixedFormat``), so the same run always gives the same bytes.
enum ExportNumber {
    static func text(_ value: Double, _ decimals: Int) -> String {
        FixedFormat.string(Float(value), decimals: decimals)
    }
}
