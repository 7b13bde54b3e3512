/// facepipe's built-in bitmap font for labels: ASCII 32…126 as 5×8 glyphs
/// (capitals 7 rows high, one descender row) in a 6×9 cell, drawn without
/// anti-aliasing and scaled by an integer factor. Other characters draw as `?`.
public enum BitmapFont {
    public static let glyphWidth = 5
    public static let glyphHeight = 8
    /// Horizontal distance between glyph origins (glyph + 1 column gap).
    public static let advance = 6
    /// Vertical distance between lines (glyph + 1 row gap).
    public static let lineHeight = 9
    /// The largest integer scale drawn; larger requests are clamped.
    public static let maximumScale = 64

    /// Row bitmaps, `glyphHeight` bytes per glyph in code order from 32; bit 4
    /// of a byte is the leftmost column.
    static let rows: [UInt8] = {
        var rows: [UInt8] = []
        rows.reserveCapacity(glyphArt.count * glyphHeight)
        for art in glyphArt {
            let lines = art.split(separator: " ")
            precondition(lines.count == glyphHeight && lines.allSatisfy { $0.count == glyphWidth },
                         "BitmapFont: malformed glyph \(art)")
            for line in lines {
                rows.append(line.reduce(0) { ($0 << 1) | ($1 == "#" ? 1 : 0) })
            }
        }
        return rows
    }()

    /// The glyph index for a character: its ASCII code − 32, or `?` for
    /// anything outside 32…126.
    static func glyphIndex(_ scalar: Unicode.Scalar) -> Int {
        let value = Int(scalar.value)
        return (32...126).contains(value) ? value - 32 : Int(("?" as Unicode.Scalar).value) - 32
    }

    /// The eight row bitmaps of `character` (bit 4 = leftmost column).
    public static func glyph(for character: Unicode.Scalar) -> [UInt8] {
        let start = glyphIndex(character) * glyphHeight
        return Array(rows[start..<start + glyphHeight])
    }

    /// The pixel size of `text` drawn at `scale` (lines split at `\n`),
    /// without the background padding.
    public static func size(of text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let scale = clampedScale(scale)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let longest = lines.map { $0.unicodeScalars.count }.max() ?? 0
        let width = longest == 0 ? 0 : (longest * advance - 1) * scale
        return (width, (lines.count * lineHeight - 1) * scale)
    }

    static func clampedScale(_ scale: Int) -> Int { min(max(scale, 1), maximumScale) }
}
