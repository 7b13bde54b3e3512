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
