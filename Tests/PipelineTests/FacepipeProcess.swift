import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `facepipe` binary, run as a child process: for what only a
/// process shows (signals, exit codes, a closed stderr, a file size limit).
/// It sits beside the test bundle (`swift build --build-tests` builds both).
enum FacepipeProcess {
    static var binary: URL { FacepipeBinary.url }
    static var available: Bool { FacepipeBinary.available }

    /// Starts the binary (or `executable`) with `arguments` in `folder`: a
    /// ``ChildProcess`` whose stderr the test can read while it runs.
    /// `feedsStandardInput`: stdin is a pipe the test writes to; else /dev/null.
    /// `standardError`: a descriptor stderr goes to instead.
    static func start(_ arguments: [String], executable: URL = FacepipeProcess.binary, in folder: URL,
                      feedsStandardInput: Bool = false, standardError: Int32? = nil) throws -> ChildProcess {
        try ChildProcess(executable.path, arguments, in: folder, input: feedsStandardInput ? .pipe : .none,
                         standardError: standardError.map { .descriptor($0) } ?? .captured)
    }

    /// Runs `arguments` to the end; the exit status and stderr.
    static func run(_ arguments: [String], in folder: URL, input: [UInt8]? = nil) throws -> (status: Int32, stderr: String) {
        let result = try ChildProcess.run(binary.path, arguments, in: folder, input: input)
        return (result.status, result.errors)
    }

    /// Waits (polling, no deadline assertion beyond `attempts`) until `condition` holds.
    static func waitUntil(attempts: Int = 6000, _ condition: () -> Bool) async -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }
}

/// A tar of PNGs (noise, so they do not compress: a PNG is about its
/// pixels' size), named `img00.png`…, with its bytes and the tar offset
/// where each entry's header starts (to feed a stream part by part).
struct PNGTar {
    let bytes: [UInt8]
    let entryOffsets: [Int]

    init(sides: [Int], in folder: URL) throws {
        var generator = SplitMix64(seed: 17)
        let path = folder.appendingPathComponent("pngs-\(UUID().uuidString).tar").path
        let writer = try TarWriter(path: path)
        var offsets: [Int] = [], offset = 0
        for (number, side) in sides.enumerated() {
            let pixels = (0..<side * side * 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let png = try FastPNGEncoder.encode(RGBImage(width: side, height: side, pixels: pixels))
            try writer.add(path: String(format: "img%02d.png", number), data: png)
            offsets.append(offset)
            offset += 512 + (png.count + 511) / 512 * 512
        }
        try writer.finish()
        bytes = try Fixtures.bytes(URL(fileURLWithPath: path))
        entryOffsets = offsets
        try FileManager.default.removeItem(atPath: path)
    }
}
