import ArgumentParser
import Foundation
import ImageCodecs
import ImageCore
import Inference
import Pipeline
import RunFolders

// A benchmark: compiled only with FACEPIPE_BENCHMARKS set (Package.swift, Benchmarks).
#if FACEPIPE_BENCHMARKS
/// `facepipe bench-codecs FILES…`: single-thread codec throughput, for
/// `benchmarks/codecs.sh`. Hidden: a measuring tool, not a user verb, and
/// only in a benchmark build.
struct BenchCodecsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-codecs",
        abstract: "Measure JPEG/PNG decode and PNG encode throughput (one thread; decode rates count source pixels).",
        shouldDisplay: false
    )

    @Argument(help: "JPEG or PNG files.")
    var files: [String]

    @Option(help: "Seconds to time each measurement (after an equal warm-up of at most 0.5 s).")
    var seconds: Double = 1.0

    @Flag(help: "Time decoding only.")
    var decodeOnly = false

    @Flag(help: "Time PNG encoding only (files are decoded once, untimed): FastPNGEncoder's default, then libpng settings.")
    var encodeOnly = false

    @Flag(help: "Sweep zlib level × strategy × filter for PNG encoding instead of the three named settings.")
    var sweep = false

    @Flag(help: "Sweep the fast encoder's filter × block size (and runs off) instead of the named settings.")
    var fastSweep = false

    @Option(name: .customLong("setting"), help: "Only these sweep settings (e.g. level1-rle-adaptive; `fast` = FastPNGEncoder only); repeatable.")
    var onlySettings: [String] = []

    @Option(help: "JPEG DCT scale denominator for decoding: 1, 2, 4 or 8.")
    var scale: Int = 1

    func run() throws {
        guard let jpegScale = JPEGScale(rawValue: scale) else {
            throw ValidationError("--scale must be 1, 2, 4 or 8")
        }
        let decoder = ImageDecoder()
        var images: [(name: String, image: RGBImage)] = []
        if !encodeOnly { print("decode\tfile\tformat\twidth\theight\tMP/s(wall)\tMP/s(cpu)") }
        for path in files {
            let bytes = [UInt8](try FileFailure.at(path) { try Data(contentsOf: URL(fileURLWithPath: path)) })
            let options = DecodeOptions(jpegScale: jpegScale)
            let decoded = try decoder.decode(bytes, options: options)
            images.append((URL(fileURLWithPath: path).lastPathComponent, decoded.image))
            guard !encodeOnly else { continue }
            // Rates count the file's pixels (header size), so DCT-scaled decodes compare with full ones.
            let rate = measure(megapixels: Double(decoded.headerWidth * decoded.headerHeight) / 1e6) {
                _ = try? decoder.decode(bytes, options: options)
            }
            print("decode\t\(path)\t\(decoded.format.rawValue)\t\(decoded.image.width)\t\(decoded.image.height)\t\(format(rate))")
        }
        guard !decodeOnly else { return }

        let settings: [(String, PNGEncodeOptions)] = !onlySettings.isEmpty
            ? Self.sweepSettings.filter { onlySettings.contains($0.0) }
            : sweep ? Self.sweepSettings : [
            ("libpng(level1+up,previous-default)", PNGEncodeOptions()),
            ("libpng(level6,zlib-default)", .zlibDefault),
            ("libpng(level1+rle+adaptive,opencv-settings)", .opencvDefault),
        ]
        print("encode\tsetting\tMP/s(wall)\tMP/s(cpu)\tbytes/pixel")
        let totalPixels = Double(images.reduce(0) { $0 + $1.image.pixelCount })
        let fastSettings = fastSweep ? Self.fastSweepSettings : [FastPNGEncodeOptions()]
        for options in fastSettings where onlySettings.isEmpty || onlySettings.contains("fast") {
            var bytes = 0
            for (_, image) in images { bytes += try FastPNGEncoder.encode(image, options: options).count }
            let rate = measure(megapixels: totalPixels / 1e6) {
                for (_, image) in images { _ = try? FastPNGEncoder.encode(image, options: options) }
            }
            let name = options == FastPNGEncodeOptions() ? "fast(default: \(options))" : "fast(\(options))"
            print("encode\t\(name.replacingOccurrences(of: " ", with: ""))\t\(format(rate))\t\(String(format: "%.3f", Double(bytes) / totalPixels))")
        }
        if fastSweep { return }
        for (name, options) in settings {
            var bytes = 0
            for (_, image) in images { bytes += try PNGEncoder.encode(image, options: options).count }
            let rate = measure(megapixels: totalPixels / 1e6) {
                for (_, image) in images { _ = try? PNGEncoder.encode(image, options: options) }
            }
            print("encode\t\(name)\t\(format(rate))\t\(String(format: "%.3f", Double(bytes) / totalPixels))")
        }
    }

    static var fastSweepSettings: [FastPNGEncodeOptions] {
        var all: [FastPNGEncodeOptions] = []
        for filter in FastPNGEncodeOptions.Filter.allCases {
            for blockSize in [32 << 10, 128 << 10, 512 << 10] {
                all.append(FastPNGEncodeOptions(filter: filter, blockSize: blockSize))
            }
        }
        all.append(FastPNGEncodeOptions(filter: .up, runLengthMatches: false))
        return all
    }

    static var sweepSettings: [(String, PNGEncodeOptions)] {
        var all: [(String, PNGEncodeOptions)] = []
        for level in [1, 2, 3, 6, 9] {
            for strategy in PNGEncodeOptions.Strategy.allCases {
                for filter in PNGEncodeOptions.Filter.allCases {
                    all.append(("level\(level)-\(strategy)-\(filter)", PNGEncodeOptions(level: level, strategy: strategy, filter: filter)))
                }
            }
        }
        return all
    }

    /// Megapixels per second of `body`, each call covering `megapixels`:
    /// wall-clock (comparable with tjbench) and this thread's CPU time (robust
    /// when other processes share the cores).
    private func measure(megapixels: Double, _ body: () -> Void) -> Rate {
        let clock = ContinuousClock()
        let warmupEnd = clock.now + .seconds(min(0.5, seconds))
        repeat { body() } while clock.now < warmupEnd
        var iterations = 0
        let start = clock.now, cpuStart = threadCPUNanoseconds()
        var elapsed = Duration.zero
        repeat {
            body()
            iterations += 1
            elapsed = clock.now - start
        } while elapsed < .seconds(seconds)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpu = Double(threadCPUNanoseconds() - cpuStart) / 1e9
        let total = megapixels * Double(iterations)
        return Rate(wall: total / wall, cpu: total / max(cpu, 1e-9))
    }

    struct Rate { var wall: Double; var cpu: Double }

    private func format(_ rate: Rate) -> String { String(format: "%.1f\t%.1f", rate.wall, rate.cpu) }
}
#endif
