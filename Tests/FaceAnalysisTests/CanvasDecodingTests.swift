import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// Decoding a canvas grid and filling a canvas input.
struct CanvasDecodingTests {
    /// Seeded raw outputs for a `columns × rows` grid: a spread of logits around the 0.5 threshold.
    static func rawOutputs(cells: Int, seed: UInt64) -> (regressors: [Float], scores: [Float]) {
        var generator = SplitMix64(seed: seed)
        let regressors = (0..<cells * 16).map { _ in (generator.unitFloat() - 0.5) * 40 }
        let scores = (0..<cells).map { _ in (generator.unitFloat() - 0.9) * 20 }
        return (regressors, scores)
    }

    /// On the model's own grid (full range: 48×48; short range: 16×16×2
    /// then 8×8×6 anchors), decoding in canvas pixels is MediaPipe's
    /// normalized decoding scaled by the native input size: the decode scale
    /// is the native input size, whatever the canvas.
    @Test(arguments: [DetectorConfiguration.fullRange, .shortRange])
    func gridDecodingAtTheNativeSizeIsTheAnchorDecodingInPixels(_ configuration: DetectorConfiguration) throws {
        let (regressors, scores) = Self.rawOutputs(cells: configuration.anchorCount, seed: 5)
        let decoder = DetectionDecoder(configuration: configuration)
        let normalized = try regressors.withUnsafeBufferPointer { r in
            try scores.withUnsafeBufferPointer { s in try decoder.decode(regressors: r, classificators: s) }
        }
        let size = configuration.inputSize
        let pixels = try regressors.withUnsafeBufferPointer { r in
            try scores.withUnsafeBufferPointer { s in
                try DetectionDecoder.decodeGrid(regressors: r, classificators: s, width: size, height: size, configuration: configuration)
            }
        }
        try #require(normalized.count == pixels.count)
        #expect(normalized.count > 20, "the seeded logits should pass the threshold often")
        let scale = Float(size)
        for (n, p) in zip(normalized, pixels) {
            #expect(n.score == p.score)
            #expect(((n.coordinates * scale) - p.coordinates).max() < 1e-3 && ((n.coordinates * scale) - p.coordinates).min() > -1e-3)
        }
    }

    /// A cell of a non-square grid: its anchor is the cell centre in canvas pixels, row-major.
    @Test func gridCellsAreRowMajorWithCentresAtHalfStride() throws {
        let columns = 96, rows = 64
        var regressors = [Float](repeating: 0, count: columns * rows * 16)
        var scores = [Float](repeating: -10, count: columns * rows)
        let cell = 37 * columns + 90
        scores[cell] = 3
        regressors[cell * 16 + 0] = 2; regressors[cell * 16 + 1] = -1   // centre offset
        regressors[cell * 16 + 2] = 40; regressors[cell * 16 + 3] = 44  // width, height
        regressors[cell * 16 + 4] = -10; regressors[cell * 16 + 5] = -8 // first keypoint
        let found = try regressors.withUnsafeBufferPointer { r in
            try scores.withUnsafeBufferPointer { s in
                try DetectionDecoder.decodeGrid(regressors: r, classificators: s, width: columns * 4, height: rows * 4, configuration: .fullRange)
            }
        }
        let face = try #require(found.first)
        #expect(found.count == 1)
        let cx = Float(90 * 4 + 2) + 2, cy = Float(37 * 4 + 2) - 1
        #expect(face.xmin == cx - 20 && face.xmax == cx + 20 && face.ymin == cy - 22 && face.ymax == cy + 22)
        #expect(face.coordinates[4] == 362 - 10 && face.coordinates[5] == 150 - 8)
        #expect(abs(face.score - 1 / (1 + exp(-3))) < 1e-6)
    }

    @Test func gridOfTheWrongSizeIsAnError() {
        let regressors = [Float](repeating: 0, count: 10 * 16), scores = [Float](repeating: 0, count: 10)
        #expect(throws: FaceAnalysisError.self) {
            try regressors.withUnsafeBufferPointer { r in
                try scores.withUnsafeBufferPointer { s in
                    try DetectionDecoder.decodeGrid(regressors: r, classificators: s, width: 4 * 4, height: 3 * 4, configuration: .fullRange)
                }
            }
        }
    }

    /// A crop inside the image is the antialiased resize at scale 1 (which is
    /// the identity) without its cost; outside the image it is black.
    @Test func cropIsTheIdentityResizeInsideAndBlackOutside() throws {
        let image = try FaceTestSupport.photo("t1.jpg")
        var cropped = [Float](repeating: .nan, count: 192 * 192 * 3)
        var resized = [Float](repeating: .nan, count: 192 * 192 * 3)
        cropped.withUnsafeMutableBufferPointer {
            TensorSampler.crop(image, x: 301, y: 117, width: 192, height: 192, valueScale: 2 / 255, valueOffset: -1, into: $0)
        }
        resized.withUnsafeMutableBufferPointer {
            TensorSampler.resize(image, region: SquareRegion(x: 301, y: 117, side: 192), size: 192, valueScale: 2 / 255, valueOffset: -1, into: $0)
        }
        let worst = zip(cropped, resized).map { abs($0 - $1) }.max() ?? .nan
        #expect(worst < 1e-5, "largest difference \(worst)")

        // Overhanging the top-left and right edges.
        let width = image.width
        var edge = [Float](repeating: .nan, count: 64 * 32 * 3)
        edge.withUnsafeMutableBufferPointer {
            TensorSampler.crop(image, x: width - 40, y: -8, width: 64, height: 32, valueScale: 2 / 255, valueOffset: -1, into: $0)
        }
        for row in 0..<32 {
            for column in 0..<64 {
                let inside = row >= 8 && column < 40
                let value = edge[(row * 64 + column) * 3]
                if inside {
                    let byte = image.pixels[((row - 8) * width + width - 40 + column) * 3]
                    #expect(abs(value - (Float(byte) * 2 / 255 - 1)) < 1e-6)
                } else {
                    #expect(value == -1, "row \(row) column \(column)")
                }
                if inside ? false : value != -1 { return }
            }
        }
    }
}
