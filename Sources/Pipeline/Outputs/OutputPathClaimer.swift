/// Gives each entry a relative output path that is safe (never leaves the
/// output folder) and unique within an archive's folder, deterministically in
/// archive order: a duplicate name gets its entry index appended.
struct OutputPathClaimer {
    private var claimed: Set<String> = []

    mutating func claim(rawName: [UInt8], index: Int) -> String {
        var components: [String] = []
        for part in rawName.split(separator: UInt8(ascii: "/")) {
            var text = String(decoding: part, as: UTF8.self)
            text = String(text.unicodeScalars.map { scalar -> Character in
                scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\\" || scalar == ":" ? "_" : Character(scalar)
            })
            if text.isEmpty || text == "." { continue }
            if text == ".." { continue }
            components.append(String(text.prefix(150)))
        }
        var path = components.suffix(16).joined(separator: "/")
        if path.isEmpty { path = "unnamed" }
        if claimed.contains(path.lowercased()) {
            path += "~\(index)"
        }
        claimed.insert(path.lowercased())
        return path
    }
}
