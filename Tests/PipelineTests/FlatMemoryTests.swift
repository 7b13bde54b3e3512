import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport

/// A run's memory does not grow with its entries (issue 51): the real
/// binary runs `upright-png` (no models, the cheapest pipeline) over tars of
/// 2 500 and of 7 500 tiny PNGs made here, and the peak resident set of each
/// run (its `ru_maxrss`, ``peakKB(_:)``) must differ by less than
/// ``allowedGrowthKB``. Before, the end of a run held every manifest row
/// (the report read manifest.csv whole, twice) and every output name:
/// about 1.8 KB an entry, 9 MB more at 7 500 entries. 2 500 entries fill
/// the report's bounded gallery (``RunReport/galleryLimit``), so what is
/// left to grow is what grows per entry; one worker (`-j 1`) keeps what is
/// in flight, and so the peak, the same however busy the machine is.
///
/// The run is a cluster task's (`--shard 0/1`: the run, then its file list
/// and `_SUCCESS`), and `facepipe merge` of it is measured the same way:
/// before, the task held every output file's path, size and SHA-256 to
/// write `_SUCCESS`, and the merge read them back whole and kept several
/// lists and sets of them (at fcc77e9 its peak grew 6 MB from 2 500 to 7 500
/// entries of these names). The entries' names are 820 bytes
/// (``longFolders``), near the 1 000 an output path may have, so what is
/// held per entry shows.
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary (swift build --build-tests)"))
struct FlatMemoryTests {
    /// What the peak may grow from 2 500 entries to 7 500 (allocator and
    /// page noise, about 1 MB either way): 0.4 KB an entry, a quarter of
    /// what the rows and names took.
    static let allowedGrowthKB = 2048
    static let sizes = (small: 2500, large: 7500)

    /// Four folders of 200 bytes each.
    static let longFolders = "abcd".map { String(repeating: String($0), count: 200) + "/" }.joined()

    @Test func peakMemoryOfARunAndItsMergeIsTheSameFor2500And7500Entries() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try FastPNGEncoder.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)))
        var peaks: [Int: (run: Int, merge: Int)] = [:]
        for count in [Self.sizes.small, Self.sizes.large] {
            let tar = folder.appendingPathComponent("photos-\(count).tar")
            let writer = try TarWriter(path: tar.path)
            for index in 0..<count { try writer.add(path: Self.longFolders + String(format: "img-%07d.png", index), data: png) }
            try writer.finish()
            let out = folder.appendingPathComponent("out-\(count)")
            let (status, peak) = try Self.peakKB(["run", "--pipeline", "upright-png", tar.path, "--out", out.path, "-j", "1", "--quiet",
                                                  "--shard", "0/1"])
            #expect(status == 0, "facepipe run over \(count) entries exited with \(status)")
            let (merged, mergePeak) = try Self.peakKB(["merge", out.path])
            #expect(merged == 0, "facepipe merge of \(count) entries exited with \(merged)")
            let rows = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
                .split(separator: "\r\n").count
            #expect(rows == count + 1, "one merged manifest row per entry and the header")
            let last = Self.longFolders + String(format: "img-%07d.png.png", count - 1)
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/\(tar.lastPathComponent)/\(last)").path))
            peaks[count] = (peak, mergePeak)
        }
        let small = try #require(peaks[Self.sizes.small]), large = try #require(peaks[Self.sizes.large])
        let perEntry = { (growth: Int) in growth * 1024 / (Self.sizes.large - Self.sizes.small) }
        #expect(large.run - small.run < Self.allowedGrowthKB,
                "the run's peak RSS \(small.run) KB at \(Self.sizes.small) entries, \(large.run) KB at \(Self.sizes.large): \(large.run - small.run) KB more (\(perEntry(large.run - small.run)) bytes an entry)")
        #expect(large.merge - small.merge < Self.allowedGrowthKB,
                "merge's peak RSS \(small.merge) KB at \(Self.sizes.small) entries, \(large.merge) KB at \(Self.sizes.large): \(large.merge - small.merge) KB more (\(perEntry(large.merge - small.merge)) bytes an entry)")
    }

    /// Runs the binary with `arguments` (its output dropped) and waits for
    /// it: its exit status and its own peak resident set in KB. Measured by
    /// a small go-between, python3 (installed by
    /// scripts/install-system-deps.sh), from `RUSAGE_CHILDREN`: a child
    /// spawned straight from this test process would carry the test
    /// process's own peak (Linux keeps the high-water mark of the memory a
    /// process had before `execve`, here the parent's, shared by vfork).
    static func peakKB(_ arguments: [String]) throws -> (status: Int32, peakKB: Int) {
        let script = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, FacepipeProcess.binary.path] + arguments)
        let fields = String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        try #require(result.status == 0 && fields.count == 2, "python3 could not measure the run: \(fields) \(result.errors)")
        return (try #require(Int32(fields[0])), try #require(Int(fields[1])))
    }
}
