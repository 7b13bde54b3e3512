import FaceAnalysis
import Foundation
import ImageCore
import Testing
/// Not a test: prints detector and landmark timings (median of repeats) for
/// benchmarks/faces-timing.sh. Runs only with FACEPIPE_FACE_TIMING=1 and
/// asserts nothing about speed.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FACEPIPE_FACE_TIMING"] == "1"))
func faceTimingProbe() throws {
    let analyzer = try FaceTestSupport.analyzer()
    let t1 = try FaceTestSupport.photo("t1.jpg")
    let astronaut = try FaceTestSupport.photo("astronaut.png")
    let canvas = RGBImage(width: 4000, height: 3000, fill: (96, 96, 96))
    func time(_ label: String, _ n: Int = 5, _ body: () throws -> Void) rethrows {
        try body()
        var samples: [Double] = []
        for _ in 0..<n { let s = DispatchTime.now().uptimeNanoseconds; try body(); samples.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6) }
        print("TIMING \(label): median \(samples.sorted()[n / 2]) ms")
    }
    for mode in DetectorMode.allCases {
        try time("t1 1280x886 \(mode) whole frame") { _ = try analyzer.detect(in: t1, options: .init(mode: mode, minFaceSize: 0), allowTiling: false) }
    }
    try time("t1 accurate minFaceSize 0.1") { _ = try analyzer.detect(in: t1, options: .init(mode: .accurate, minFaceSize: 0.1)) }
    try time("t1 accurate minFaceSize 0.05") { _ = try analyzer.detect(in: t1, options: .init(mode: .accurate, minFaceSize: 0.05)) }
    try time("12MP accurate minFaceSize 0.1", 3) { _ = try analyzer.detect(in: canvas, options: .init(mode: .accurate, minFaceSize: 0.1)) }
    try time("12MP accurate minFaceSize 0.01", 1) { _ = try analyzer.detect(in: canvas, options: .init(mode: .accurate, minFaceSize: 0.01)) }
    let face = try #require(try analyzer.detect(in: astronaut, options: .init(mode: .accurate)).first)
    try time("landmarks mesh only", 10) { _ = try analyzer.landmarks(for: face, in: astronaut, iris: false) }
    try time("landmarks mesh + iris", 10) { _ = try analyzer.landmarks(for: face, in: astronaut) }
}

/// Not a test: splits accurate-mode detection time into input sampling and
/// the rest (inference, decoding, NMS) and prints the region count, for
/// profiling the tiling. Runs only with FACEPIPE_FACE_TIMING=1.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FACEPIPE_FACE_TIMING"] == "1"))
func faceTilingBreakdownProbe() throws {
    let analyzer = try FaceTestSupport.analyzer()
    let t1 = try FaceTestSupport.photo("t1.jpg")
    let canvas = t1.pasted(into: 4000, 3000, at: 1000, 800)
    func milliseconds(_ n: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var samples: [Double] = []
        for _ in 0..<n { let s = DispatchTime.now().uptimeNanoseconds; try body(); samples.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6) }
        return samples.sorted()[n / 2]
    }
    for (label, image, minFaceSize) in [("t1", t1, Float(0.05)), ("t1", t1, 0.1), ("12MP", canvas, 0.05), ("12MP", canvas, 0.1)] {
        let plan = DetectionRegionPlan(width: image.width, height: image.height, inputSize: 192, minFacePixels: minFaceSize * Float(image.width), tiled: true)
        let sampling = try milliseconds(3) { try FaceTestSupport.sampleAll(plan, of: image) }
        let total = try milliseconds(3) { _ = try analyzer.detect(in: image, options: .init(mode: .accurate, minFaceSize: .fraction(minFaceSize))) }
        print("TIMING \(label) \(image.width)x\(image.height) minFaceSize \(minFaceSize): \(plan.canvases.count) canvases + whole frame, \(plan.detectorPixels(inputSize: 192)) detector pixels, sampling \(sampling) ms, total \(total) ms")
    }
}

/// Not a test: detector runs and input pixels per image for a list of image
/// sizes (one "width height" per line in the file named by
/// FACEPIPE_CANVAS_STATS), with canvases and, for comparison, with the 192-px
/// tiles overlapping by a quarter that accurate mode used before canvases.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FACEPIPE_CANVAS_STATS"] != nil))
func canvasStatisticsProbe() throws {
    let path = ProcessInfo.processInfo.environment["FACEPIPE_CANVAS_STATS"]!
    let sizes = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> (Int, Int)? in
        let parts = line.split(separator: " ").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
    func tileCount(_ extent: Int) -> Int { extent <= 192 ? 1 : Int((Float(extent - 192) / 144).rounded(.up)) + 1 }
    for minFaceSize in [Float(0.05), 0.1, 0] {
        var canvasRuns = 0, canvasPixels = 0, tileRuns = 0
        for (width, height) in sizes {
            let plan = DetectionRegionPlan(width: width, height: height, inputSize: 192, minFacePixels: minFaceSize * Float(width), tiled: true)
            canvasRuns += 1 + plan.canvases.count
            canvasPixels += plan.detectorPixels(inputSize: 192)
            tileRuns += 1
            for level in Set(plan.canvases.map(\.level)) {
                tileRuns += tileCount(plan.levels[level].width) * tileCount(plan.levels[level].height)
            }
        }
        let n = Double(sizes.count)
        print("CANVAS STATS minFaceSize \(minFaceSize), \(sizes.count) images: canvases \(Double(canvasRuns) / n) runs, \(Double(canvasPixels) / n / 1000) k px per image; 192-px tiles \(Double(tileRuns) / n) runs, \(Double(tileRuns * 192 * 192) / n / 1000) k px per image")
    }
}
