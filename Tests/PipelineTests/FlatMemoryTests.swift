import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A run's memory does not grow with its entries (issue 51): the real
/// binary runs `upright-png` (no models, the cheapest pipeline) over tars of
/// 2 500 and of 7 500 tiny PNGs made here, and the peak resident set of each
/// run (the child's own `ru_maxrss`, from `wait4`) must differ by less than
/// ``allowedGrowthKB``. Before, the end of a run held every manifest row
/// (the report read manifest.csv whole, twice) and every output name:
/// about 1.8 KB an entry, 9 MB more at 7 500 entries. 2 500 entries fill
/// the report's bounded gallery (``RunReport/galleryLimit``), so what is
/// left to grow is what grows per entry; one worker (`-j 1`) keeps what is
/// in flight, and so the peak, the same however busy the machine is.
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary (swift build --build-tests)"))
struct FlatMemoryTests {
    /// What the peak may grow from 2 500 entries to 7 500 (allocator and
    /// page noise, about 1 MB either way): 0.4 KB an entry, a quarter of
    /// what the rows and names took.
    static let allowedGrowthKB = 2048
    static let sizes = (small: 2500, large: 7500)

    @Test func peakMemoryIsTheSameFor2500And7500Entries() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try FastPNGEncoder.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)))
        var peaks: [Int: Int] = [:]
        for count in [Self.sizes.small, Self.sizes.large] {
            let tar = folder.appendingPathComponent("photos-\(count).tar")
            let writer = try TarWriter(path: tar.path)
            for index in 0..<count { try writer.add(path: String(format: "photos/img-%07d.png", index), data: png) }
            try writer.finish()
            let out = folder.appendingPathComponent("out-\(count)")
            let (status, peak) = try Self.peakKB(["run", "--pipeline", "upright-png", tar.path, "--out", out.path, "-j", "1", "--quiet"])
            #expect(status == 0, "facepipe run over \(count) entries exited with \(status)")
            let rows = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
                .split(separator: "\r\n").count
            #expect(rows == count + 1, "one manifest row per entry and the header")
            peaks[count] = peak
        }
        let small = try #require(peaks[Self.sizes.small]), large = try #require(peaks[Self.sizes.large])
        #expect(large - small < Self.allowedGrowthKB,
                "peak RSS \(small) KB at \(Self.sizes.small) entries, \(large) KB at \(Self.sizes.large): \(large - small) KB more (\((large - small) * 1024 / (Self.sizes.large - Self.sizes.small)) bytes an entry)")
    }

    /// Runs the binary with `arguments` (stdout and stderr to /dev/null) and
    /// waits for it: its exit status and its own peak resident set in KB.
    static func peakKB(_ arguments: [String]) throws -> (status: Int32, peakKB: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([FacepipeProcess.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, FacepipeProcess.binary.path, &actions, nil, argv, environ)
        try #require(spawned == 0, "cannot start \(FacepipeProcess.binary.path): \(String(cString: strerror(spawned)))")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            try #require(errno == EINTR, "wait4: \(String(cString: strerror(errno)))")
        }
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        return (exit, usage.ru_maxrss)
    }
}
