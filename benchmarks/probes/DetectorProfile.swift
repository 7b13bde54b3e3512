import ArchiveIO
import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Inference
import _TestSupport

/// `facepipe-probes detector-profile ARCHIVE`: accurate-mode detection as the
/// `faces` pipeline runs it (20 px floor) on every image of an archive, one
/// thread, with the detector CPU split by pyramid level, the whole frame and
/// building the level images; and, per canvas, the texture of its level image
/// (the largest grey-level standard deviation of its 16×16 blocks) against
/// whether the canvas found a face that was kept, to see which canvases a
/// texture test could skip without losing a face.
struct DetectorProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detector-profile",
        abstract: "Detector CPU per pyramid level and canvas texture against kept faces, over an archive (20 px floor, one thread)."
    )

    @Argument(help: "A tar archive of images.")
    var archive: String

    @Option(help: "Stop after this many images.")
    var limit = Int.max

    @Option(help: "The confidence a face needs to count as kept.")
    var keep: Float = 0.7

    @Option(help: "The canvases' detector arithmetic: float32, int8-first-layer or int8.")
    var canvasArithmetic: DetectorArithmetic = .float32

    struct CanvasRecord {
        var level: Int
        var pixels: Int
        var nanoseconds: UInt64
        var texture: Float
        var foundKept: Bool
        var skipped: Bool
    }

    func run() throws {
        let analyzer = try FaceProbeInputs.analyzer()
        let trace = DetectionTrace()
        analyzer.searchObserver = trace
        let options = FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20), minScore: 0.5, canvasArithmetic: canvasArithmetic)
        let reader = try TarReader(path: archive)
        var records: [CanvasRecord] = []
        var images = 0, sourcePixels = 0, keptFaces = 0
        var wholeFrame: UInt64 = 0, levelImages: UInt64 = 0, total: UInt64 = 0
        while images < limit, let item = try reader.next() {
            guard case .file(let entry) = item, let decoded = try? ImageDecoder.decode(entry.data) else { continue }
            let image = decoded.uprightImage()
            let start = threadCPUNanoseconds()
            let faces = try analyzer.detect(in: image, options: options)
            total += threadCPUNanoseconds() - start
            images += 1
            sourcePixels += image.width * image.height
            wholeFrame += trace.wholeFrameNanoseconds
            levelImages += trace.levelImageNanoseconds
            let kept = faces.filter { $0.score >= keep }
            keptFaces += kept.count
            guard let plan = trace.plan else { continue }
            let textures = try Self.canvasTextures(image, plan: plan)
            for (run, texture) in zip(trace.canvasRuns, textures) {
                let foundKept = run.detections.contains { detection in kept.contains { $0.box.intersectionOverUnion(detection.box) > 0.3 } }
                records.append(CanvasRecord(level: run.canvas.level, pixels: run.canvas.width * run.canvas.height,
                                            nanoseconds: run.nanoseconds, texture: texture, foundKept: foundKept, skipped: run.skipped))
            }
        }
        guard images > 0 else { throw ProbeFailure("no decodable images in \(archive)") }
        let canvasTime = records.reduce(0) { $0 + $1.nanoseconds }
        func ms(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1e6 / Double(images)) }
        print("PROFILE \(images) images, \(String(format: "%.2f", Double(sourcePixels) / Double(images) / 1e6)) MP per image, \(keptFaces) faces ≥ \(keep)")
        print("PROFILE detector CPU per image: total \(ms(total)) ms = canvases \(ms(canvasTime)) + whole frame \(ms(wholeFrame)) + level images \(ms(levelImages)) + merging \(ms(total - canvasTime - wholeFrame - levelImages))")
        for level in Set(records.map(\.level)).sorted() {
            let at = records.filter { $0.level == level }
            let pixels = at.reduce(0) { $0 + $1.pixels }
            print("PROFILE level \(level): \(at.count) canvases, \(String(format: "%.2f", Double(pixels) / Double(images) / 1e6)) M canvas px per image, \(ms(at.reduce(0) { $0 + $1.nanoseconds })) ms per image, \(String(format: "%.1f", Double(at.reduce(0) { $0 + $1.nanoseconds }) / Double(max(pixels, 1)))) ns per px, \(at.filter(\.foundKept).count) found a kept face")
        }
        print("PROFILE skipped for want of contrast: \(records.filter(\.skipped).count)/\(records.count) canvases")
        let withFace = records.filter(\.foundKept).map(\.texture).sorted()
        print("PROFILE texture of canvases that found a kept face: min \(withFace.first ?? .nan), 1st percentile \(withFace.isEmpty ? .nan : withFace[withFace.count / 100])")
        for threshold: Float in [2, 3, 4, 6, 8, 10, 12, 16, 20, 24] {
            let below = records.filter { $0.texture < threshold }
            print("PROFILE texture < \(threshold): \(below.count)/\(records.count) canvases, \(String(format: "%.1f", 100 * Double(below.reduce(0) { $0 + $1.nanoseconds }) / Double(max(canvasTime, 1))))% of canvas CPU, \(below.filter(\.foundKept).count) of them found a kept face")
        }
    }

    /// Per canvas of `plan` (in order), the largest standard deviation of
    /// grey level over its 16×16 blocks inside the level image.
    static func canvasTextures(_ image: RGBImage, plan: SearchPlan) throws -> [Float] {
        var result: [Float] = []
        var levelImage = image
        for (index, level) in plan.levels.enumerated() {
            if index > 0 { levelImage = try levelImage.downscaledAreaAverage(width: level.width, height: level.height) }
            for canvas in plan.tiles where canvas.level == index {
                result.append(blockTexture(levelImage, x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height))
            }
        }
        return result
    }

    static func blockTexture(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> Float {
        let block = 16
        var best: Float = 0
        var by = max(y, 0)
        while by + block <= min(y + height, image.height) {
            var bx = max(x, 0)
            while bx + block <= min(x + width, image.width) {
                var sum: Float = 0, squares: Float = 0
                for row in by..<(by + block) {
                    for column in bx..<(bx + block) {
                        let i = (row * image.width + column) * 3
                        let grey = 0.299 * Float(image.pixels[i]) + 0.587 * Float(image.pixels[i + 1]) + 0.114 * Float(image.pixels[i + 2])
                        sum += grey; squares += grey * grey
                    }
                }
                let n = Float(block * block), mean = sum / n
                best = max(best, (max(squares / n - mean * mean, 0)).squareRoot())
                bx += block
            }
            by += block
        }
        return best
    }
}

extension DetectorArithmetic: ExpressibleByArgument {}
