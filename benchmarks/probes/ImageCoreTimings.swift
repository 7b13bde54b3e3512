import ArgumentParser
import Foundation
import ImageCore

/// `facepipe-probes imagecore`: wall-clock timings of ImageCore's hot paths on
/// a 4000×3000 image, for comparison with scripts/imagecore_opencv_timings.py.
/// Prints "imagecore <case> <ms> ms <Mpx/s> Mpx/s".
struct ImageCoreTimings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagecore",
        abstract: "Orientation, resizing, tensor sampling and drawing timings on a 4000x3000 noise image (median of 7 runs)."
    )

    /// A `width`×`height` image of deterministic noise: the top byte of a
    /// Fibonacci hash of each byte's index.
    static func noise(width: Int, height: Int) -> RGBImage {
        let count = width * height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { buffer[i] = UInt8(truncatingIfNeeded: (UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 56) }
            initialized = count
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func report(_ name: String, _ milliseconds: Double, pixels: Int) {
        let mpps = Double(pixels) / milliseconds / 1e3
        print(String(format: "imagecore %-44@ %8.2f ms  %7.1f Mpx/s", name as NSString, milliseconds, mpps))
    }

    /// Median milliseconds of `runs` calls, without a warm-up call.
    func median(_ runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
        try Stopwatch.median(runs, warmUp: false, body)
    }

    func run() throws {
        let photo = Self.noise(width: 4000, height: 3000)
        var sink = 0
        let source = photo.pixelCount
        report("oriented(.rightTop) 4000x3000", median { sink &+= photo.oriented(.rightTop).width }, pixels: source)
        report("oriented(.bottomRight) 4000x3000", median { sink &+= photo.oriented(.bottomRight).width }, pixels: source)
        report("areaAverage 4000x3000 -> 1000x750", try median { sink &+= try photo.downscaledAreaAverage(width: 1000, height: 750).width }, pixels: source)
        report("areaAverage 4000x3000 -> 1333x1000 (3x frac)", try median { sink &+= try photo.downscaledAreaAverage(width: 1333, height: 1000).width }, pixels: source)
        report("areaAverage 4000x3000 -> 128x96", try median { sink &+= try photo.downscaledAreaAverage(width: 128, height: 96).width }, pixels: source)
        report("bilinear 4000x3000 -> 2000x1500", try median { sink &+= try photo.resizedBilinear(width: 2000, height: 1500).width }, pixels: 2000 * 1500)
        report("bilinear 4000x3000 -> 6000x4500", try median(3) { sink &+= try photo.resizedBilinear(width: 6000, height: 4500).width }, pixels: 6000 * 4500)
        var tensor = [Float](repeating: 0, count: 192 * 192 * 3)
        tensor.withUnsafeMutableBufferPointer { buffer in
            let letterbox = SquareRegion.letterbox(width: photo.width, height: photo.height)
            var small = [Float](repeating: 0, count: 128 * 128 * 3)
            small.withUnsafeMutableBufferPointer { smallBuffer in
                report("letterbox tensor 4000x3000 -> 128", median { TensorSampler.resize(photo, region: letterbox, size: 128, valueScale: 2 / 255, valueOffset: -1, into: smallBuffer) }, pixels: source)
            }
            report("letterbox tensor 4000x3000 -> 192", median { TensorSampler.resize(photo, region: letterbox, size: 192, valueScale: 2 / 255, valueOffset: -1, into: buffer) }, pixels: source)
            // A square of `side` pixels centred at (2000, 1500), turned by 0.3 rad, onto 192 tensor pixels.
            func roi(side: Float) -> AffineMap {
                AffineMap.translation(x: -96, y: -96).followed(by: .scale(side / 192)).followed(by: .rotation(radians: 0.3))
                    .followed(by: .translation(x: 2000, y: 1500))
            }
            report("ROI sample 900px face -> 192 tensor", median { TensorSampler.sample(photo, transform: roi(side: 900), size: 192, valueScale: 1 / 255, valueOffset: 0, into: buffer) }, pixels: 900 * 900)
            report("ROI sample 300px face -> 192 tensor", median { TensorSampler.sample(photo, transform: roi(side: 300), size: 192, valueScale: 1 / 255, valueOffset: 0, into: buffer) }, pixels: 192 * 192)
        }
        var canvas = photo
        let oval = (0..<36).map { i -> Point in
            let angle = Float(i) / 36 * 2 * .pi
            return Point(x: 2000 + 400 * cos(angle), y: 1500 + 500 * sin(angle))
        }
        report("polyline 36 pts r~450, width 4", median { canvas.drawPolyline(oval, closed: true, width: 4, color: .green) }, pixels: 36)
        report("468 dots r=2", median { for p in 0..<468 { canvas.drawDot(at: Point(x: Float(1600 + p), y: Float(1200 + p / 2)), radius: 2, color: .red) } }, pixels: 468)
        report("rectangle 900x900 width 6", median { canvas.drawRectangle(Rect(x: 1500, y: 1000, width: 900, height: 900), width: 6, color: .yellow) }, pixels: 1)
        report("text 'face 1 0.98' scale 3 + background", median { canvas.drawText("face 1 0.98", at: Point(x: 1500, y: 970), scale: 3, color: .white, background: .black) }, pixels: 1)
        // Keeps the results observable so the optimiser cannot drop the timed calls.
        if sink == 0 { print("imagecore: every result was empty") }
    }
}
