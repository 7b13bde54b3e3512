import Foundation
import ImageCore

/// Face capture quality, 0…1, higher = sharper, better exposed, larger and
/// more frontal. Like Apple Vision's, it is meant to rank captures of the
/// same face, not to compare different people.
///
/// The face box (1.1× around its centre) is resampled to 96×96 grey
/// (Rec. 601 luma, area-averaged) and measured:
/// - `sharpness` = v / (v + 60), v the variance of the 4-neighbour Laplacian
///   (grey levels 0…255); blur lowers v sharply.
/// - `exposure` = (1 − ((μ − 125)/110)²)·(1 − clipped), μ the mean grey and
///   `clipped` the fraction of pixels ≤ 8 or ≥ 247.
/// - `size` = (w − 24)/(112 − 24) clamped to 0…1, w the box width in pixels:
///   faces of 112 px and more score 1.
/// - `pose` = exp(−(yaw² + pitch²)/(2·30²)) in degrees (1 without a pose).
/// `score` = sharpness^0.4 · exposure^0.2 · size^0.2 · pose^0.2.
public struct CaptureQuality: Sendable, Hashable, Codable {
    public var score: Float
    public var sharpness: Float
    public var exposure: Float
    public var size: Float
    public var pose: Float

    static let cropSize = 96

    public init(score: Float, sharpness: Float, exposure: Float, size: Float, pose: Float) {
        self.score = score; self.sharpness = sharpness; self.exposure = exposure; self.size = size; self.pose = pose
    }

    public init(image: RGBImage, box: Rect, pose headPose: HeadPose? = nil) {
        let n = Self.cropSize
        var grey = [Float](repeating: 0, count: n * n)
        let side = max(box.width, box.height) * 1.1
        if side.isFinite, side > 0, image.width > 0, image.height > 0 {
            let region = SquareRegion(x: box.centerX - side / 2, y: box.centerY - side / 2, side: side)
            var rgb = [Float](repeating: 0, count: n * n * 3)
            rgb.withUnsafeMutableBufferPointer {
                TensorSampler.sample(image, transform: region.samplingTransform(tensorSize: n), size: n,
                                     valueScale: 1, valueOffset: 0, supersample: true, into: $0)
            }
            for i in 0..<(n * n) { grey[i] = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2] }
        }
        var sum: Float = 0, clipped = 0
        for g in grey { sum += g; if g <= 8 || g >= 247 { clipped += 1 } }
        let mean = sum / Float(n * n)
        var lapSum: Float = 0, lapSquares: Float = 0
        for y in 1..<(n - 1) {
            for x in 1..<(n - 1) {
                let i = y * n + x
                let l = grey[i - 1] + grey[i + 1] + grey[i - n] + grey[i + n] - 4 * grey[i]
                lapSum += l; lapSquares += l * l
            }
        }
        let count = Float((n - 2) * (n - 2))
        let lapMean = lapSum / count
        let variance = max(lapSquares / count - lapMean * lapMean, 0)
        let sharpness = variance / (variance + 60)
        let deviation = (mean - 125) / 110
        let exposure = max(0, 1 - deviation * deviation) * (1 - Float(clipped) / Float(n * n))
        let size = min(max((box.width - 24) / (112 - 24), 0), 1)
        var pose: Float = 1
        if let p = headPose { pose = exp(-(p.yaw * p.yaw + p.pitch * p.pitch) / (2 * 30 * 30)) }
        func clean(_ v: Float) -> Float { v.isFinite ? min(max(v, 0), 1) : 0 }
        let s = clean(sharpness), e = clean(exposure), z = clean(size), q = clean(pose)
        let score = pow(s, 0.4) * pow(e, 0.2) * pow(z, 0.2) * pow(q, 0.2)
        self.init(score: clean(score), sharpness: s, exposure: e, size: z, pose: q)
    }
}
