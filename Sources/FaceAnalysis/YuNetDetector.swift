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
    public init(weights url: URL, minimumScore: Float = 0.5, kernels: KernelSet = .best) throws {
        let weights = try YuNetWeights(contentsOf: url)
        do {
            base = try YuNetGraph.model(weights, kernels: kernels)
            interpreter = try Interpreter(model: base)
        } catch {
            throw FaceAnalysisError.inference(model: url.lastPathComponent, message: "\(error)")
        }
        current = (YuNetGraph.alignment, YuNetGraph.alignment, base)
        self.minimumScore = minimumScore
    }

    /// Faces in `image` with score ≥ `minimumScore`, best first.
    /// - Throws: `FaceAnalysisError.imageUnsearchable` when the picture is
    ///   too large for the engine's arena; `.inference` on other engine errors.
    public func detect(_ image: RGBImage) throws(FaceAnalysisError) -> [YuNetDetection] {
        guard image.width >= 1, image.height >= 1 else { return [] }
        let a = YuNetGraph.alignment
        let height = (image.height + a - 1) / a * a, width = (image.width + a - 1) / a * a
        if current.height != height || current.width != width {
            do {
                let model = try base.resized(inputShape: [1, height, width, 3])
                try interpreter.switchModel(to: model)
                current = (height, width, model)
            } catch {
                throw .imageUnsearchable(width: image.width, height: image.height, reason: "\(error)")
            }
        }
        // BGR floats 0…255, zero padding at the bottom and right.
        interpreter.withInput(0) { input in
            input.update(repeating: 0)
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<image.height {
                    var source = y * image.width * 3, target = y * width * 3
                    for _ in 0..<image.width {
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
        return detections.filter { $0.score >= minimumScore }
    }
}
