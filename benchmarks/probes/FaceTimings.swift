import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore

/// Face models from models/ and photos from datasets/sources/, as `make models sources` leaves them.
enum FaceProbeInputs {
    static func analyzer() throws -> FaceAnalyzer {
        FaceAnalyzer(models: try FaceModels.load(FaceModel.allCases, from: URL(fileURLWithPath: "models")))
    }

    /// `datasets/sources/<file>`, decoded (every source photo is stored upright).
    static func photo(_ file: String) throws -> RGBImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "datasets/sources").appendingPathComponent(file)))
        return try ImageDecoder.decode(bytes).image
    }
}

/// `facepipe-probes faces`: detector and landmark timings (median of repeats)
/// for benchmarks/faces-timing.sh. Prints "TIMING <case>: median <ms> ms".
struct FaceTimings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces",
        abstract: "Detector (per mode, with tiling at several minFaceSize values) and landmark timings on t1.jpg, astronaut.png and a 12 MP frame."
    )

    func run() throws {
        let analyzer = try FaceProbeInputs.analyzer()
        let t1 = try FaceProbeInputs.photo("t1.jpg")
        let astronaut = try FaceProbeInputs.photo("astronaut.png")
        let canvas = RGBImage(width: 4000, height: 3000, fill: (96, 96, 96))
        func time(_ label: String, _ runs: Int = 5, _ body: () throws -> Void) rethrows {
            let milliseconds = try Stopwatch.median(runs, body)
            print("TIMING \(label): median \(milliseconds) ms")
        }
        for mode in DetectorMode.allCases {
            try time("t1 1280x886 \(mode) whole frame") { _ = try analyzer.detect(in: t1, options: .init(mode: mode, minFaceSize: 0), allowTiling: false) }
        }
        try time("t1 accurate minFaceSize 0.1") { _ = try analyzer.detect(in: t1, options: .init(mode: .accurate, minFaceSize: 0.1)) }
        try time("t1 accurate minFaceSize 0.05") { _ = try analyzer.detect(in: t1, options: .init(mode: .accurate, minFaceSize: 0.05)) }
        try time("12MP accurate minFaceSize 0.1", 3) { _ = try analyzer.detect(in: canvas, options: .init(mode: .accurate, minFaceSize: 0.1)) }
        try time("t1 accurate minFaceSize 20px") { _ = try analyzer.detect(in: t1, options: .init(mode: .accurate, minFaceSize: .pixels(20))) }
        try time("12MP accurate minFaceSize 20px", 1) { _ = try analyzer.detect(in: canvas, options: .init(mode: .accurate, minFaceSize: .pixels(20))) }
        try time("12MP accurate minFaceSize 0.01", 1) { _ = try analyzer.detect(in: canvas, options: .init(mode: .accurate, minFaceSize: 0.01)) }
        guard let face = try analyzer.detect(in: astronaut, options: .init(mode: .accurate)).first else {
            throw ProbeFailure("no face detected in astronaut.png")
        }
        try time("landmarks mesh only", 10) { _ = try analyzer.landmarks(for: face, in: astronaut, iris: false) }
        try time("landmarks mesh + iris", 10) { _ = try analyzer.landmarks(for: face, in: astronaut) }
    }
}

/// `facepipe-probes faces-tiling`: accurate-mode detection time split into
/// input sampling and the rest (inference, decoding, NMS), with the region
/// count, for profiling the tiling.
struct FaceTilingBreakdown: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces-tiling",
        abstract: "Accurate-mode detection split into input sampling and the rest, on t1.jpg and t1 in a 12 MP frame."
    )

    func run() throws {
        let analyzer = try FaceProbeInputs.analyzer()
        let t1 = try FaceProbeInputs.photo("t1.jpg")
        let canvas = t1.pasted(into: 4000, 3000, at: 1000, 800)
        for (label, image, minFaceSize) in [("t1", t1, Float(0.05)), ("t1", t1, 0.1), ("12MP", canvas, 0.05), ("12MP", canvas, 0.1)] {
            let plan = SearchPlan(DetectorFamily.blazeFaceShortRange.pyramid!, width: image.width, height: image.height, minFacePixels: minFaceSize * Float(image.width), wholeFrameInput: 192)
            let sampling = try Stopwatch.median(3) { try Self.sampleAll(plan, of: image) }
            let total = try Stopwatch.median(3) { _ = try analyzer.detect(in: image, options: .init(mode: .accurate, minFaceSize: .fraction(minFaceSize))) }
            print("TIMING \(label) \(image.width)x\(image.height) minFaceSize \(minFaceSize): \(plan.tiles.count) canvases + whole frame, \(plan.detectorPixels(inputSize: 192)) detector pixels, sampling \(sampling) ms, total \(total) ms")
        }
    }

    /// Samples the whole frame and every canvas of `plan` as `detect` does (timing only).
    static func sampleAll(_ plan: SearchPlan, of image: RGBImage) throws {
        var levelImage = image
        var tensor: [Float] = []
        for (index, level) in plan.levels.enumerated() {
            if index > 0 { levelImage = try levelImage.downscaledAreaAverage(width: level.width, height: level.height) }
            for canvas in plan.tiles where canvas.level == index {
                tensor = [Float](repeating: 0, count: canvas.width * canvas.height * 3)
                tensor.withUnsafeMutableBufferPointer { buffer in
                    TensorSampler.crop(levelImage, x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height,
                                       valueScale: 2 / 255, valueOffset: -1, into: buffer)
                }
            }
            if let wholeFrame = plan.wholeFrame, wholeFrame.level == index {
                tensor = [Float](repeating: 0, count: 192 * 192 * 3)
                tensor.withUnsafeMutableBufferPointer { buffer in
                    TensorSampler.resize(levelImage, region: wholeFrame.square, size: 192, valueScale: 2 / 255, valueOffset: -1, into: buffer)
                }
            }
        }
    }
}

/// `facepipe-probes canvas-stats PATH`: detector runs and input pixels per
/// image for a list of image sizes, with canvases and, for comparison, with
/// the 192-px tiles overlapping by a quarter that accurate mode used before
/// canvases.
struct CanvasStatistics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canvas-stats",
        abstract: "Detector runs and input pixels per image, canvases against 192-px tiles, for a list of image sizes."
    )

    @Argument(help: "A text file with one \"width height\" per line.")
    var path: String

    func run() throws {
        let sizes = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> (Int, Int)? in
            let parts = line.split(separator: " ").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        guard !sizes.isEmpty else { throw ProbeFailure("no \"width height\" lines in \(path)") }
        func tileCount(_ extent: Int) -> Int { extent <= 192 ? 1 : Int((Float(extent - 192) / 144).rounded(.up)) + 1 }
        for minFaceSize in [Float(0.05), 0.1, 0] {
            var canvasRuns = 0, canvasPixels = 0, tileRuns = 0
            for (width, height) in sizes {
                let plan = SearchPlan(DetectorFamily.blazeFaceShortRange.pyramid!, width: width, height: height, minFacePixels: minFaceSize * Float(width), wholeFrameInput: 192)
                canvasRuns += 1 + plan.tiles.count
                canvasPixels += plan.detectorPixels(inputSize: 192)
                tileRuns += 1
                for level in Set(plan.tiles.map(\.level)) {
                    tileRuns += tileCount(plan.levels[level].width) * tileCount(plan.levels[level].height)
                }
            }
            let n = Double(sizes.count)
            print("CANVAS STATS minFaceSize \(minFaceSize), \(sizes.count) images: canvases \(Double(canvasRuns) / n) runs, \(Double(canvasPixels) / n / 1000) k px per image; 192-px tiles \(Double(tileRuns) / n) runs, \(Double(tileRuns * 192 * 192) / n / 1000) k px per image")
        }
    }
}
