import ImageCore
import Inference

/// The detector run on a pyramid's canvases (a family's `DetectorFamily.Search.canvasPyramid`):
/// a canvas spans its level's whole height, so the model, planned at the
/// canvas's size (sharing the packed weights, see `Model.resized`), runs
/// on it a band of rows at a time (`RowStreamingInterpreter`) and each
/// finished row of the output grids is decoded as it comes. Memory follows
/// the canvas width, not its height. The streaming interpreters of the
/// last few canvas sizes stay for the worker's lifetime (pictures of one
/// size reuse theirs), all on the largest arena one of them needed. With
/// `.int8FirstLayer` the canvases are planned with an int8 first
/// convolution (`FirstConvolution.int8`) and fed the level image's bytes;
/// `.int8` also plans the block projections in int8 (`PointwiseConvolution.int8`).
/// One per `FaceAnalyzer` and ``DetectorArithmetic``, so not `Sendable`.
package final class CanvasDetector {
    let model: Model
    let configuration: DetectorConfiguration
    let arithmetic: DetectorArithmetic
    /// The first plan made, which later sizes are resized from, sharing
    /// its packed weights (an int8 plan packs its own).
    private var firstPlan: Model?
    /// Streaming interpreters by canvas size, most recently used last.
    private var streams: [(size: SIMD2<Int>, interpreter: RowStreamingInterpreter)] = []
    /// Interpreters kept: a picture's levels have different sizes, and a
    /// run's pictures often share theirs.
    static let keptSizes = 8
    /// Input rows sampled per band. 32 rather than 16: the deeper layers
    /// (stride 8 and 16 of the input) then get four and two rows per band
    /// instead of two and one, so the 16-lane depthwise sweeps four rows
    /// at a time there too and the projections take longer runs of pixels.
    /// `run faces` on the bench archive, 2 workers, four alternating pairs
    /// on an AVX-512 Xeon: 3 % less CPU, for a 16.0 MB instead of 11.6 MB
    /// arena at 1056 px (rings count twice in the resident set: peak RSS
    /// +11–14 MB at 2 workers). docs/BENCHMARKS.md has the runs.
    package static let bandRows = 32

    init(model: Model, configuration: DetectorConfiguration, arithmetic: DetectorArithmetic) {
        self.model = model
        self.configuration = configuration
        self.arithmetic = arithmetic
    }

    /// Detections in `canvas` of `levelImage`, in canvas pixels, before NMS.
    /// `lowScores` (probes only) also receives every detection from its
    /// floor up, with the stride of the output layer that found it.
    func detect(in levelImage: RGBImage, canvas: SearchPlan.Tile, minScore: Float,
                lowScores: (floor: Float, receive: (_ stride: Int, DetectionCandidate) -> Void)? = nil) throws(FaceAnalysisError) -> [DetectionCandidate] {
        let interpreter = try self.interpreter(width: canvas.width, height: canvas.height)
        let layers = try outputLayers(of: interpreter, canvas: canvas)
        // The probes' floor decodes more than `minScore`; the rest is filtered below.
        let decodeFloor = lowScores.map { min($0.floor, minScore) } ?? minScore
        var grids = layers.map { DetectionGridRows(layer: $0, minScore: decodeFloor) }
        var found: [DetectionCandidate] = []
        func needs(_ head: Int, _ rows: Range<Int>) -> Bool {
            grids.allSatisfy { $0.layer.regressorsHead != head || $0.needsRegressors(rows) }
        }
        func output(_ head: Int, _ rows: Range<Int>, _ values: UnsafeBufferPointer<Float>) {
            for index in grids.indices where grids[index].layer.scoresHead == head || grids[index].layer.regressorsHead == head {
                grids[index].receive(head: head, rows: rows, values: values)
                guard let lowScores else {
                    grids[index].decodeReadyRows(into: &found)
                    continue
                }
                var low: [DetectionCandidate] = []
                grids[index].decodeReadyRows(into: &low)
                for detection in low { lowScores.receive(grids[index].layer.stride, detection) }
                found += low.filter { $0.score >= minScore }
            }
        }
        switch arithmetic {
        case .float32:
            interpreter.run(input: { rows, input in
                TensorSampler.crop(levelImage, x: canvas.x, y: canvas.y + rows.lowerBound, width: canvas.width, height: rows.count,
                                   valueScale: 2 / 255, valueOffset: -1, into: input)
            }, needs: needs, output: output)
        case .int8FirstLayer, .int8, .staticInt8:
            // The same canvas as bytes: black (0) outside the level image, where the float canvas has −1.
            interpreter.runBytes(input: { rows, input in
                TensorSampler.cropBytes(levelImage, x: canvas.x, y: canvas.y + rows.lowerBound, width: canvas.width, height: rows.count,
                                        into: input)
            }, needs: needs, output: output)
        }
        return found
    }

    /// Matches the streamed heads to `configuration`'s layers by shape.
    private func outputLayers(of interpreter: RowStreamingInterpreter, canvas: SearchPlan.Tile) throws(FaceAnalysisError) -> [DetectionGridRows.Layer] {
        var layers: [DetectionGridRows.Layer] = []
        for (stride, perCell) in zip(configuration.strides, configuration.anchorsPerCell) {
            let rows = canvas.height / stride, columns = canvas.width / stride
            func head(channels: Int) -> Int? {
                interpreter.heads.firstIndex { $0.height == rows && $0.width == columns && $0.channels == channels }
            }
            guard let scores = head(channels: perCell), let regressors = head(channels: perCell * 16) else {
                throw .unexpectedModelShape(model: configuration.modelFile,
                                            detail: "at \(canvas.width)×\(canvas.height) the streamed outputs \(interpreter.heads) hold no \(columns)×\(rows) grid of \(perCell) anchors")
            }
            layers.append(DetectionGridRows.Layer(stride: stride, anchorsPerCell: perCell, columns: columns, scoresHead: scores, regressorsHead: regressors))
        }
        return layers
    }

    /// The streaming interpreter for a `width × height` canvas: reused when
    /// one of the last `keptSizes` sizes, else planned (`Model.resized`
    /// shares the packed weights) and made on the largest arena kept; when
    /// it needs a larger one, the others are let go with theirs.
    private func interpreter(width: Int, height: Int) throws(FaceAnalysisError) -> RowStreamingInterpreter {
        let size = SIMD2(width, height)
        if let index = streams.firstIndex(where: { $0.size == size }) {
            let kept = streams.remove(at: index)
            streams.append(kept)
            return kept.interpreter
        }
        // All sizes share the largest arena so far: one worker runs one canvas at a time.
        let largest = streams.max { $0.interpreter.arenaFloatCount < $1.interpreter.arenaFloatCount }?.interpreter
        let made: RowStreamingInterpreter
        do {
            let shape = [1, height, width, 3]
            let sized = try firstPlan?.resized(inputShape: shape) ?? model.resized(inputShape: shape, firstConvolution: arithmetic.firstConvolution,
                                                                                pointwise: arithmetic.pointwise)
            if firstPlan == nil { firstPlan = sized }
            made = try RowStreamingInterpreter(model: sized, bandRows: Self.bandRows, sharing: largest)
        } catch {
            throw .inference(model: configuration.modelFile, message: "planning a \(width)×\(height) canvas: \(error)")
        }
        if made.arenaFloatCount > (largest?.arenaFloatCount ?? 0) {
            // A new, larger arena: the others' would stay mapped beside it.
            streams.removeAll()
        } else if streams.count == Self.keptSizes {
            streams.removeFirst()
        }
        streams.append((size, made))
        return made
    }
}
