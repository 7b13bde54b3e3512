import ArchiveIO
import ArgumentParser
import Foundation

/// `facepipe-probes archive ARCHIVE`: throughput of `TarReader` over a real
/// archive (best of 3 reads) and the cost of `SafeOutputPath` per entry name,
/// for benchmarks/archive.sh. Prints "BENCH facepipe-TarReader … seconds=…"
/// and "BENCH SafeOutputPath ns-per-name=…".
struct ArchiveReadTimings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "TarReader throughput over an archive (best of 3) and SafeOutputPath nanoseconds per name."
    )

    @Argument(help: "A tar archive (plain, .gz or .zst).")
    var archive: String

    func run() throws {
        var best = Double.infinity
        var files = 0, bytes = 0, checksum: UInt64 = 0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            files = 0; bytes = 0; checksum = 0
            let reader = try TarReader(path: archive)
            while let item = try reader.next() {
                guard case .file(let entry) = item else { continue }
                files += 1
                bytes += entry.data.count
                checksum &+= UInt64(entry.data.last ?? 0)  // touch the data
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let names = (0..<10_000).map { Array("photos/../set \($0)/IMG_\($0).JPG".utf8) }
        let start = DispatchTime.now().uptimeNanoseconds
        var total = 0
        for name in names { total += SafeOutputPath.relativePath(forRawName: name).utf8.count }
        let perName = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(names.count)
        print("BENCH facepipe-TarReader files=\(files) bytes=\(bytes) seconds=\(best) MBps=\(Double(bytes) / 1e6 / best) checksum=\(checksum)")
        print("BENCH SafeOutputPath ns-per-name=\(Int(perName)) (\(total) bytes)")
        guard files > 0 else { throw ProbeFailure("no files in \(archive)") }
    }
}
