import Foundation
import ImageCore
import Inference

/// YuNet-s, the small-face detector (docs/YUNET.md), on facepipe's engine in
/// fp32: runs on the whole picture at its own resolution (padded to
/// multiples of 32, as libfacedetection does), and returns detections in
/// picture pixels with libfacedetection's decoding and NMS.
///
/// Owns one interpreter: not `Sendable`; create one per worker (the
/// weights are read once by each `init`).
public final class YuNetDetector {
    /// Scores below this are dropped; libfacedetection's Python binding
    /// `yuface.detect` defaults to 0.5.
    public var minimumScore: Float
    private let base: Model
    private var current: (height: Int, width: Int, model: Model)
    private let interpreter: Interpreter

    /// Reads `models/yunet_s.weights` (or another file in that format).
    /// - Throws: `YuNetWeightsError` naming the file when it is missing,
    ///   malformed or not YuNet-s's; `FaceAnalysisError.inference` when the
    ///   engine cannot plan the graph.
    public convenience init(weights url: URL, minimumScore: Float = 0.5, kernels: KernelSet = .best) throws {
        let weights = try YuNetWeights(contentsOf: url)
        let model: Model
        do { model = try YuNetGraph.model(weights, kernels: kernels) } catch {
            throw FaceAnalysisError.inference(model: url.lastPathComponent, message: "\(error)")
        }
        try self.init(model: model, minimumScore: minimumScore)
    }

    /// Runs `model`, YuNet-s as ``YuNetGraph/model(_:height:width:kernels:)``
    /// planned it (shared read-only by every worker's detector).
    public init(model: Model, minimumScore: Float = 0.5) throws(FaceAnalysisError) {
        do { interpreter = try Interpreter(model: model) } catch {
            throw .inference(model: FaceModel.yunet.fileName, message: "\(error)")
        }
        base = model
        current = (YuNetGraph.alignment, YuNetGraph.alignment, model)
        self.minimumScore = minimumScore
    }

    /// Faces in `image` with score ≥ `minimumScore`, best first.
    /// - Throws: `FaceAnalysisError.imageUnsearchable` when the picture is
    ///   too large for the engine's arena; `.inference` on other engine errors.
    public func detect(_ image: RGBImage) throws(FaceAnalysisError) -> [YuNetDetection] {
        try detect(image, x: 0, y: 0, width: image.width, height: image.height)
    }

    /// Faces in the `width`×`height` region of `image` at (`x`, `y`) (inside
    /// the picture), searched as if the region were the whole picture, in
    /// picture pixels. Regions of one size share one plan.
    package func detect(_ image: RGBImage, x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) throws(FaceAnalysisError) -> [YuNetDetection] {
        guard regionWidth >= 1, regionHeight >= 1, x >= 0, y >= 0, x + regionWidth <= image.width, y + regionHeight <= image.height else { return [] }
        let a = YuNetGraph.alignment
        let height = (regionHeight + a - 1) / a * a, width = (regionWidth + a - 1) / a * a
        if current.height != height || current.width != width {
            do {
                let model = try base.resized(inputShape: [1, height, width, 3])
                try interpreter.switchModel(to: model)
                current = (height, width, model)
            } catch {
                throw .imageUnsearchable(width: image.width, height: image.height, reason: "its \(regionWidth)×\(regionHeight) YuNet region: \(error)")
            }
        }
        // BGR floats 0…255, zero padding at the bottom and right.
        interpreter.withInput(0) { input in
            input.update(repeating: 0)
            image.pixels.withUnsafeBufferPointer { pixels in
                for row in 0..<regionHeight {
                    var source = ((y + row) * image.width + x) * 3, target = row * width * 3
                    for _ in 0..<regionWidth {
                        input[target] = Float(pixels[source + 2])
                        input[target + 1] = Float(pixels[source + 1])
                        input[target + 2] = Float(pixels[source])
                        source += 3
                        target += 3
                    }
                }
            }
        }
        interpreter.invoke()
        let interpreter = self.interpreter
        let detections = YuNetDecoder.decode(height: height, width: width) { level, kind, body in
            interpreter.withOutput(level * YuNetGraph.headChannels.count + kind) { body($0) }
        }
        let dx = Float(x), dy = Float(y)
        return detections.filter { $0.score >= minimumScore }.map { detection in
            var moved = detection
            moved.box.x += dx
            moved.box.y += dy
            moved.landmarks = detection.landmarks.map { Point(x: $0.x + dx, y: $0.y + dy) }
            return moved
        }
    }
}
