/// Turns an archive member's raw name into a relative output path that can
/// never leave the output folder, stably and without collisions.
///
/// Rules (stable: the same bytes give the same path in every release):
/// 1. `/` and `\` separate components. Empty, `.` and `..` components are
///    dropped (never resolved), so `../x`, `/abs/x`, `a/../../b`, `./a//b`
///    all stay below the root.
/// 2. In each component, control bytes (0x00–0x1F, 0x7F), C1 controls
///    (U+0080–U+009F), bidirectional overrides (U+202A–U+202E, U+2066–U+2069)
///    and every byte that is not part of valid UTF-8 become `%XX` (uppercase
///    hex of each byte). Everything else, `%` included, is kept as is.
/// 3. A component is cut to `maxComponentBytes` (200) bytes at a character
///    boundary; when the whole path exceeds `maxPathBytes` (1000), directory
///    components are dropped from the deepest one up.
/// 4. A name with no component left becomes `unnamed`.
/// 5. When any rule changed the name — or the untouched name already ends in
///    what looks like a marker (its stem ends in `~` and hex digits) — the last
///    component's stem gets `~` + 12 hex digits of FNV-1a-64 of the raw bytes
///    (the low 48 bits) before its extension: `a/../b.jpg` → `a/b~3f2c…9d.jpg`.
///    An extension is a final `.` + 1…16 ASCII letters/digits, not at the
///    start of the component.
///
/// So an unchanged name maps to itself and a changed one carries its own
/// hash: two different raw names only meet if FNV-1a-64 collides on its low
/// 48 bits. Identical names in one archive are told apart by the caller with
/// `disambiguated(_:index:)` (or `OutputNames`).
public enum SafeOutputPath {
    /// Longest component of a returned path, in UTF-8 bytes.
    public static let maxComponentBytes = 200
    /// Longest returned path, in UTF-8 bytes.
    public static let maxPathBytes = 1000
    /// Longest extension kept apart from the stem (without its dot).
    public static let maxExtensionBytes = 16
    /// The name used when nothing of the raw name is left.
    public static let fallbackName = "unnamed"

    private static let hashMarkerBytes = 13  // "~" + 12 hex digits

    /// A relative path (components joined with `/`, no `.`/`..`/empty
    /// components, no leading `/`, no NUL or control characters, valid UTF-8,
    /// bounded length) for an archive member's raw name.
    public static func relativePath(forRawName raw: [UInt8]) -> String {
        var components: [[UInt8]] = []
        for part in raw.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x2F || $0 == 0x5C }) {
            if part.elementsEqual([0x2E]) || part.elementsEqual([0x2E, 0x2E]) { continue }
            components.append(escaped(part))
        }
        if components.isEmpty { components = [Array(fallbackName.utf8)] }
        let parts = splitExtension(components.removeLast())
        var directories = components.map { truncated($0, to: maxComponentBytes) }
        var changed = endsWithMarker(parts.stem)
            || !Array((directories + [parts.stem + parts.extension]).joined(separator: [0x2F])).elementsEqual(raw)
        while true {
            let last: [UInt8]
            if changed {
                let stemBudget = maxComponentBytes - hashMarkerBytes - parts.extension.count
                last = truncated(parts.stem, to: stemBudget) + Array("~\(StableHash.shortHex(raw))".utf8) + parts.extension
            } else {
                last = parts.stem + parts.extension
            }
            let total = directories.reduce(0) { $0 + $1.count + 1 } + last.count
            if (changed || last.count <= maxComponentBytes) && total <= maxPathBytes {
                return String(decoding: Array((directories + [last]).joined(separator: [0x2F])), as: UTF8.self)
            }
            // Too long: mark as changed (adds the hash and caps the last
            // component), then drop directories from the deepest one up.
            if changed && !directories.isEmpty { directories.removeLast() }
            changed = true
        }
    }

    /// Tells apart identical names in one archive: inserts `~<index>` before
    /// the last component's extension (`a/b.jpg`, 7 → `a/b~7.jpg`).
    /// Sanitised paths never end their stem in `~` + digits unless they carry a
    /// 12-digit hash, so results cannot meet another entry's path for indices
    /// below 10¹¹.
    public static func disambiguated(_ path: String, index: Int) -> String {
        var components = Array(path.utf8).split(separator: 0x2F, omittingEmptySubsequences: false).map(Array.init)
        let last = components.popLast() ?? []
        let parts = splitExtension(last)
        components.append(parts.stem + Array("~\(index)".utf8) + parts.extension)
        return String(decoding: Array(components.joined(separator: [0x2F])), as: UTF8.self)
    }

    // MARK: - Rules

    /// Rule 2: escapes unsafe bytes and characters as `%XX`.
    static func escaped<Bytes: Collection<UInt8>>(_ component: Bytes) -> [UInt8] where Bytes.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(component.count)
        var i = component.startIndex
        while i < component.endIndex {
            guard let length = validUTF8Length(component, at: i) else {
                appendEscape(component[i], to: &out)
                i += 1
                continue
            }
            if isUnsafeCharacter(component, at: i, length: length) {
                for k in i..<i + length { appendEscape(component[k], to: &out) }
            } else {
                for k in i..<i + length { out.append(component[k]) }
            }
            i += length
        }
        return out
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let hex = hexDigits
        out.append(0x25)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
    }

    /// Whether the well-formed character of `length` bytes at `i` must be escaped.
    private static func isUnsafeCharacter<Bytes: Collection<UInt8>>(_ bytes: Bytes, at i: Int, length: Int) -> Bool where Bytes.Index == Int {
        switch length {
        case 1: return bytes[i] < 0x20 || bytes[i] == 0x7F
        case 2: return bytes[i] == 0xC2 && bytes[i + 1] <= 0x9F  // U+0080–U+009F
        case 3:
            // U+202A–U+202E and U+2066–U+2069 are E2 80 AA–AE and E2 81 A6–A9.
            return bytes[i] == 0xE2 && ((bytes[i + 1] == 0x80 && (0xAA...0xAE).contains(bytes[i + 2])) || (bytes[i + 1] == 0x81 && (0xA6...0xA9).contains(bytes[i + 2])))
        default: return false
        }
    }

    /// Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), nil when ill-formed.
    static func validUTF8Length<Bytes: Collection<UInt8>>(_ b: Bytes, at i: Int) -> Int? where Bytes.Index == Int {
        func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i + k < b.endIndex && range.contains(b[i + k])
        }
        switch b[i] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : nil
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : nil
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default: return nil
        }
    }

    /// Rule 3: at most `limit` bytes, cut before a UTF-8 continuation byte never inside a character.
    static func truncated(_ bytes: [UInt8], to limit: Int) -> [UInt8] {
        guard bytes.count > limit else { return bytes }
        var cut = max(limit, 0)
        while cut > 0 && (0x80...0xBF).contains(bytes[cut]) { cut -= 1 }
        return Array(bytes[..<cut])
    }

    /// Rule 5's extension: a final `.` + 1…16 ASCII alphanumerics, the dot not first.
    static func splitExtension(_ component: [UInt8]) -> (stem: [UInt8], extension: [UInt8]) {
        guard let dot = component.lastIndex(of: 0x2E), dot > 0 else { return (component, []) }
        let suffix = component[(dot + 1)...]
        let isAlphanumeric = suffix.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        guard (1...maxExtensionBytes).contains(suffix.count), isAlphanumeric else { return (component, []) }
        return (Array(component[..<dot]), Array(component[dot...]))
    }

    /// Whether a stem ends in `~` followed by one or more hex digits (a marker's shape).
    static func endsWithMarker(_ stem: [UInt8]) -> Bool {
        guard let tilde = stem.lastIndex(of: 0x7E), tilde + 1 < stem.count else { return false }
        return stem[(tilde + 1)...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }
}
