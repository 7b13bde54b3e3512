import Foundation
import ImageCore
import Inference

/// YuNet-s, the small-face detector (docs/YUNET.md), on facepipe's engine:
/// runs on the whole picture at its own resolution (padded to multiples of
/// 32, as libfacedetection does), and returns detections in picture pixels
/// with libfacedetection's decoding and NMS.
///
/// In fp32 (the default) it is libfacedetection's arithmetic
/// (`YuNetParityTests`). With `pointwise: .int8` each 1×1 convolution that
/// reads a depthwise one's output sums 8-bit inputs and weights exactly
/// (`PointwiseConvolution.int8`, as on BlazeFace's canvases): about 10 %
/// less CPU (`facepipe detect --mode yunet` on the bench archive's first 60
/// images), the same bits on every CPU; accurate mode runs it, measured on
/// both labelled sets (docs/BENCHMARKS.md).
///
/// The network runs a band of rows at a time (`RowStreamingInterpreter`:
/// every tensor lives in a ring of the rows still needed, so a 1024-px
/// tile's layers stay in cache), bit for bit the values of the whole-tensor
/// `Interpreter`; the three level outputs are decoded as their rows come
/// (`YuNetDecoder.Rows`), never held whole.
///
/// Owns one streaming interpreter: not `Sendable`; create one per worker
/// (the weights are read once by each `init`).
public final class YuNetDetector {
    /// Input rows per band. 16 and 32 rows measured alike on a 1024-px tile
    /// (`facepipe model bench models/yunet_s.weights --input-size 1024x1024
    /// --stream --band-rows N`); on levels up to 4096 px wide 16 rows
    /// measured 5 % less CPU than 32 and a quarter less memory (`run faces`
    /// on the bench archive's first 60 images; 8 rows: less memory again,
    /// 5 % more CPU).
    package static let bandRows = 16
    /// Scores below this are dropped; libfacedetection's Python binding
    /// `yuface.detect` defaults to 0.5.
    public var minimumScore: Float
    private let base: Model
    private var current: (height: Int, width: Int, streaming: RowStreamingInterpreter)

    /// Given every float tensor the network computes, by name, as its rows
    /// come (`RowStreamingInterpreter.observer`): what a calibration of
    /// ``YuNetGrids`` records. Nil: nothing is observed.
    package var observer: ((_ tensor: String, _ values: UnsafeBufferPointer<Float>) -> Void)?

    /// Runs `model`, YuNet-s as ``YuNetGraph/model(_:height:width:kernels:)``
    /// planned it (shared read-only by every worker's detector), with its
    /// first layer in `firstConvolution` and its 1×1 convolutions in
    /// `pointwise` arithmetic, and the tensors `grids` names held as bytes
    /// (``YuNetGrids``).
    public init(model: Model, minimumScore: Float = 0.5, firstConvolution: FirstConvolution = .float32,
                pointwise: PointwiseConvolution = .float32, grids: ActivationGrids? = nil) throws(FaceAnalysisError) {
        let streaming: RowStreamingInterpreter
        do {
            // Planned once in the chosen arithmetic; every later size shares its packed weights.
            base = try model.resized(inputShape: model.inputs[0].shape, firstConvolution: firstConvolution, pointwise: pointwise, grids: grids)
            streaming = try Self.streaming(base, sharing: nil)
        } catch {
            throw .inference(model: FaceModel.yunet.fileName, message: "\(error)")
        }
        current = (YuNetGraph.alignment, YuNetGraph.alignment, streaming)
        self.minimumScore = minimumScore
    }

    /// A streaming interpreter for `model` whose heads are exactly its outputs.
    private static func streaming(_ model: Model, sharing: RowStreamingInterpreter?) throws -> RowStreamingInterpreter {
        let streaming = try RowStreamingInterpreter(model: model, bandRows: bandRows, sharing: sharing)
        guard streaming.headOutputs.count == model.outputs.count,
              Set(streaming.headOutputs.compactMap { $0 }).count == model.outputs.count else {
            throw InferenceError(.outputsNotStreamed(heads: streaming.headOutputs))
        }
        return streaming
    }

    /// Faces in `image` with score ≥ `minimumScore`, best first, each with
    /// YuNet's five landmarks as keypoints (``YuNetDecoder/Landmark`` order).
    /// - Throws: `FaceAnalysisError.imageUnsearchable` when the picture is
    ///   too large for the engine's arena; `.inference` on other engine errors.
    public func detect(_ image: RGBImage) throws(FaceAnalysisError) -> [FaceDetection] {
        try detect(image, x: 0, y: 0, width: image.width, height: image.height)
    }

    /// Faces in the `width`×`height` region of `image` at (`x`, `y`) (inside
    /// the picture), searched as if the region were the whole picture, in
    /// picture pixels. Regions of one size share one plan.
    package func detect(_ image: RGBImage, x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) throws(FaceAnalysisError) -> [FaceDetection] {
        guard regionWidth >= 1, regionHeight >= 1, x >= 0, y >= 0, x + regionWidth <= image.width, y + regionHeight <= image.height else { return [] }
        let a = YuNetGraph.alignment
        let height = (regionHeight + a - 1) / a * a, width = (regionWidth + a - 1) / a * a
        if current.height != height || current.width != width {
            do {
                let border = 2 * YuNetGraph.border
                let model = try base.resized(inputShape: [1, height + border, width + border, 3])
                current = (height, width, try Self.streaming(model, sharing: current.streaming))
            } catch {
                throw .imageUnsearchable(width: image.width, height: image.height, reason: "its \(regionWidth)×\(regionHeight) YuNet region: \(error)")
            }
        }
        // The region's rows, padding at the bottom and right, then the
        // one-pixel border on every side (`YuNetGraph.border`): RGB
        // `p·(2/255) − 1` floats with `YuNetGraph.paddingValue` around them,
        // or with an int8 first layer the bytes themselves around zeros.
        let streaming = current.streaming, headOutputs = streaming.headOutputs
        if let observer {
            let names = streaming.model.stepOutputNames
            streaming.observer = { step, values in observer(names[step], values) }
        } else {
            streaming.observer = nil
        }
        // Scores under libfacedetection's floor are decoded only when asked for.
        var decoder = YuNetDecoder.Rows(width: width, floor: min(YuNetDecoder.candidateThreshold, minimumScore))
        let b = YuNetGraph.border, inputRow = (width + 2 * b) * 3, regionBytes = regionWidth * 3
        let output = { (head: Int, rows: Range<Int>, values: UnsafeBufferPointer<Float>) in
            guard let level = headOutputs[head] else { return }
            decoder.add(level: level, firstRow: rows.lowerBound, values)
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            /// Calls `body` with each region row in `rows` (input offset, picture offset).
            func regionRows(_ rows: Range<Int>, rowStride: Int, _ body: (_ target: Int, _ source: Int) -> Void) {
                for row in rows where row >= b && row - b < regionHeight {
                    body((row - rows.lowerBound) * rowStride + b * 3, ((y + row - b) * image.width + x) * 3)
                }
            }
            if base.firstConvolution == .int8 {
                let inputRowBytes = streaming.inputRowBytes
                streaming.runBytes(input: { rows, input in
                    input.update(repeating: 0)
                    regionRows(rows, rowStride: inputRowBytes) { target, source in
                        // The whole region fits: the index it returns is always regionBytes.
                        _ = UnsafeMutableBufferPointer(rebasing: input[target..<(target + regionBytes)])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: pixels[source..<(source + regionBytes)]))
                    }
                }, output: output)
            } else {
                streaming.run(input: { rows, input in
                    input.update(repeating: YuNetGraph.paddingValue)
                    regionRows(rows, rowStride: inputRow) { target, source in
                        for i in 0..<regionBytes { input[target + i] = Float(pixels[source + i]) * (2 / 255) - 1 }
                    }
                }, output: output)
            }
        }
        let detections = decoder.detections()
        let dx = Float(x), dy = Float(y)
        return detections.filter { $0.score >= minimumScore }.map { detection in
            var moved = detection
            moved.box.x += dx
            moved.box.y += dy
            moved.keypoints = detection.keypoints.map { Point(x: $0.x + dx, y: $0.y + dy) }
            return moved
        }
    }
}
