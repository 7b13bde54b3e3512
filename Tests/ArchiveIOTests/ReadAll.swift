import ArchiveIO

/// Everything a reader yields before it ends or throws.
struct ReadResult {
    var items: [ArchiveItem] = []
    var error: ArchiveError?

    var files: [ArchiveEntry] {
        items.compactMap { if case .file(let entry) = $0 { entry } else { nil } }
    }
    var skipped: [SkippedEntry] {
        items.compactMap { if case .skipped(let entry) = $0 { entry } else { nil } }
    }
    var damage: ArchiveDamage? {
        if case .damaged(let damage)? = error { damage } else { nil }
    }
}

func readAll(_ path: String, options: TarReader.Options = TarReader.Options()) -> ReadResult {
    var result = ReadResult()
    do {
        let reader = try TarReader(path: path, options: options)
        while let item = try reader.next() { result.items.append(item) }
        // After the end, the reader stays finished.
        if try reader.next() != nil { fatalError("reader yielded an item after its end") }
    } catch {
        result.error = error
    }
    return result
}

/// Writes `files` (name, bytes) with `TarWriter` and returns the archive's path.
func writeTar(_ files: [(String, [UInt8])], in directory: TemporaryDirectory, name: String = "test.tar", compression: TarWriter.Compression = .none) throws -> String {
    let path = directory.file(name)
    let writer = try TarWriter(path: path, compression: compression)
    for (entryName, data) in files { try writer.add(path: entryName, data: data) }
    try writer.finish()
    return path
}
