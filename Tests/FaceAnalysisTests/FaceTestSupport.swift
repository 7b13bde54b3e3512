import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport

/// Models loaded once for all face tests (read-only, shared).
enum FaceTestSupport {
    static let models: Result<FaceModels, FaceAnalysisError> = Result { () throws(FaceAnalysisError) in
        try FaceModels.load(FaceModel.allCases, from: Fixtures.model(""))
    }

    static func analyzer() throws -> FaceAnalyzer {
        FaceAnalyzer(models: try models.get())
    }

    /// A photo from datasets/sources, decoded (all of them are stored upright).
    static func photo(_ file: String) throws -> RGBImage {
        try ImageDecoder.decode(Fixtures.bytes(Fixtures.photo(file))).image
    }
}

extension RGBImage {
    /// Mirrored left–right.
    func mirrored() -> RGBImage {
        var out = pixels
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 3, d = (y * width + (width - 1 - x)) * 3
                out[d] = pixels[s]; out[d + 1] = pixels[s + 1]; out[d + 2] = pixels[s + 2]
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// Turned counter-clockwise (as seen) by `degrees` about the centre, same size, black outside.
    func rotated(degrees: Float) -> RGBImage {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let cx = Float(width) / 2, cy = Float(height) / 2
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                // Inverse map: destination → source (y down, so CCW on screen is -a in math terms).
                let dx = Float(x) + 0.5 - cx, dy = Float(y) + 0.5 - cy
                let sx = c * dx - s * dy + cx, sy = s * dx + c * dy + cy
                let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
                guard ix >= 0, iy >= 0, ix < width, iy < height else { continue }
                let si = (iy * width + ix) * 3, di = (y * width + x) * 3
                out[di] = pixels[si]; out[di + 1] = pixels[si + 1]; out[di + 2] = pixels[si + 2]
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }
}

extension FaceTestSupport {
    /// Samples the whole frame and every canvas of `plan` as `detect` does (timing only).
    static func sampleAll(_ plan: DetectionRegionPlan, of image: RGBImage) throws {
        var levelImage = image
        var tensor: [Float] = []
        for (index, level) in plan.levels.enumerated() {
            if index > 0 { levelImage = try levelImage.downscaledAreaAverage(width: level.width, height: level.height) }
            for canvas in plan.canvases where canvas.level == index {
                tensor = [Float](repeating: 0, count: canvas.width * canvas.height * 3)
                tensor.withUnsafeMutableBufferPointer { buffer in
                    TensorSampler.crop(levelImage, x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height,
                                       valueScale: 2 / 255, valueOffset: -1, into: buffer)
                }
            }
            if plan.wholeFrame.level == index {
                tensor = [Float](repeating: 0, count: 192 * 192 * 3)
                tensor.withUnsafeMutableBufferPointer { buffer in
                    TensorSampler.resize(levelImage, region: plan.wholeFrame.square, size: 192, valueScale: 2 / 255, valueOffset: -1, into: buffer)
                }
            }
        }
    }
}
