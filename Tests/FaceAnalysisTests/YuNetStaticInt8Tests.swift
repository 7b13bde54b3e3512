import FaceAnalysis
import Foundation
import ImageCodecs
import Inference
import Testing
import _TestSupport

/// YuNet-s with static int8 activations (`ActivationGrids`,
/// `DetectorArithmetic.staticInt8`): grids calibrated here on the network
/// itself (`Interpreter.invoke(observing:)`, as `scripts/calibrate-yunet.sh`
/// calibrates `YuNetGrids`), then the byte plan streamed by rows gives the
/// whole-tensor run's bits with either kernel set and any band, every QS8
/// kernel (and every kernel of the int8 first layer, which writes the
/// grid's bytes itself) the same bits, and values close to the float
/// activations'.
@Suite struct YuNetStaticInt8Tests {
    static let height = 160, width = 96

    /// YuNet-s with the test's weights, its first layer on bytes and every 1×1 layer in int8 (`DetectorArithmetic.int8`).
    static func int8Model(kernels: KernelSet) throws -> Model {
        let model = try YuNetStreamingTests.model(height: height, width: width, kernels: kernels)
        return try model.resized(inputShape: model.inputs[0].shape, firstConvolution: .int8, pointwise: .int8Every)
    }

    /// A picture's bytes inside the zero border, as `YuNetDetector` writes them.
    static func pictureBytes(seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let b = YuNetGraph.border, rowPixels = width + 2 * b
        var bytes = [UInt8](repeating: 0, count: (height + 2 * b) * rowPixels * 3)
        for y in b..<(height + b) {
            for x in b..<(width + b) {
                // Smooth gradients and noise: values the grids see in photos, not only noise.
                for c in 0..<3 {
                    let smooth = Float(x * 2 + y + c * 40) / Float(width * 2 + height + 80)
                    bytes[(y * rowPixels + x) * 3 + c] = UInt8(min(255, max(0, (smooth * 0.8 + generator.unitFloat() * 0.2) * 255)))
                }
            }
        }
        return bytes
    }

    /// Grids from the largest magnitude of every tensor `YuNetGrids.names` names over `pictures`.
    static func calibrate(_ model: Model, on pictures: [[UInt8]]) throws -> ActivationGrids {
        let interpreter = try Interpreter(model: model)
        var calibration = YuNetGrids.Calibration()
        for bytes in pictures {
            interpreter.withByteInput { _ = $0.update(fromContentsOf: bytes) }
            interpreter.invoke { name, values in calibration.observe(name, values) }
        }
        return calibration.grids
    }

    /// The outputs of a whole-tensor run on `bytes`.
    static func wholeRun(_ model: Model, _ bytes: [UInt8]) throws -> [[Float]] {
        let interpreter = try Interpreter(model: model)
        interpreter.withByteInput { _ = $0.update(fromContentsOf: bytes) }
        interpreter.invoke()
        return model.outputs.indices.map { index in interpreter.withOutput(index) { Array($0) } }
    }

    static func gridModel(kernels: KernelSet) throws -> Model {
        let int8 = try int8Model(kernels: kernels)
        let grids = try calibrate(int8, on: [pictureBytes(seed: 1), pictureBytes(seed: 2)])
        return try int8.resized(inputShape: int8.inputs[0].shape, firstConvolution: .int8, pointwise: .int8Every, grids: grids)
    }

    @Test func theGridsNameEveryTensorBetweenLayersButTheHeads() throws {
        let grids = try Self.calibrate(try Self.int8Model(kernels: .avx2), on: [Self.pictureBytes(seed: 1)])
        // The first layer, 11 backbone pairs and 3 lateral pairs (2 tensors each), 2 neck sums.
        #expect(grids.steps.count == 1 + 2 * 11 + 2 * 3 + 2, "\(grids.steps.keys.sorted())")
        #expect(grids.steps.keys.allSatisfy { !$0.hasPrefix("bbox_head") })
        #expect(grids.steps.values.allSatisfy { $0 > 0 && $0.isFinite })
        let plan = try Self.gridModel(kernels: .avx2).stepSummaries
        #expect(plan.filter { QS8PointwiseKernel(rawValue: $0.kernel) != nil }.count == 14 + 3, "14 1×1 layers and 3 heads' read bytes")
        #expect(plan.filter { QS8DepthwiseKernel(rawValue: $0.kernel) != nil }.count == 14)
        #expect(plan.filter { $0.kind == "QUANTIZE" }.isEmpty, "the int8 first layer writes its grid's bytes itself")
    }

    /// A float first layer cannot write bytes: its floats are rounded onto the grid by a step of their own, streamed like the rest.
    @Test func aFloatFirstLayerIsQuantizedByAStepOfItsOwn() throws {
        let float = try YuNetStreamingTests.model(height: Self.height, width: Self.width, kernels: .avx2)
        let grids = try Self.calibrate(try Self.int8Model(kernels: .avx2), on: [Self.pictureBytes(seed: 1)])
        let model = try float.resized(inputShape: float.inputs[0].shape, firstConvolution: .float32, pointwise: .int8Every, grids: grids)
        #expect(model.stepSummaries.filter { $0.kind == "QUANTIZE" }.count == 1)
        let input = Self.pictureBytes(seed: 6).map { Float($0) * (2 / 255) - 1 }
        let expected = try Interpreter(model: model).run([input])
        let streaming = try RowStreamingInterpreter(model: model, bandRows: 7)
        let heads = YuNetStreamingTests.streamedHeads(streaming, input)
        for (head, output) in streaming.headOutputs.enumerated() {
            guard let output else { continue }
            #expect(heads[head].elementsEqual(expected[output]) { $0.bitPattern == $1.bitPattern }, "output \(output)")
        }
    }

    @Test(arguments: KernelSet.allCases.filter(\.isAvailable))
    func streamedBytesCarryTheWholeRunsBits(kernels: KernelSet) throws {
        let model = try Self.gridModel(kernels: kernels)
        let bytes = Self.pictureBytes(seed: 3)
        let expected = try Self.wholeRun(model, bytes)
        for band in [5, 32] {
            let streaming = try RowStreamingInterpreter(model: model, bandRows: band)
            let rowBytes = streaming.inputRowBytes, shape = model.inputs[0].shape, pictureRow = shape[2] * 3
            var heads = streaming.heads.map { _ in [Float]() }
            streaming.runBytes { rows, buffer in
                for (k, row) in rows.enumerated() {
                    for i in 0..<pictureRow { buffer[k * rowBytes + i] = bytes[row * pictureRow + i] }
                }
            } output: { head, _, values in
                heads[head].append(contentsOf: values)
            }
            for (head, output) in streaming.headOutputs.enumerated() {
                guard let output else { continue }
                #expect(heads[head].elementsEqual(expected[output]) { $0.bitPattern == $1.bitPattern }, "band \(band): output \(output)")
            }
        }
    }

    @Test func everyKernelSetAndKernelWritesTheSameBits() throws {
        let bytes = Self.pictureBytes(seed: 4)
        let reference = try Self.wholeRun(try Self.gridModel(kernels: .avx2).replacingQS8Kernels(pointwise: QS8PointwiseKernel.all.last!,
                                                                                                   depthwise: QS8DepthwiseKernel.all.last!), bytes)
        for kernels in KernelSet.allCases where kernels.isAvailable {
            let model = try Self.gridModel(kernels: kernels)
            #expect(try Self.wholeRun(model, bytes) == reference, "\(kernels)'s plan")
            // The first layer writes the grid's bytes itself, in each of its kernels.
            for first in Int8ConvolutionKernel.all where first.isRunnable {
                #expect(try Self.wholeRun(model.replacingInt8Kernel(with: first), bytes) == reference, "\(first)")
            }
            for pointwise in QS8PointwiseKernel.all where pointwise.isRunnable {
                for depthwise in QS8DepthwiseKernel.all where depthwise.isRunnable {
                    let outputs = try Self.wholeRun(model.replacingQS8Kernels(pointwise: pointwise, depthwise: depthwise), bytes)
                    #expect(outputs == reference, "\(pointwise) and \(depthwise)")
                }
            }
        }
    }

    @Test func theOutputsStayCloseToTheFloatActivations() throws {
        let bytes = Self.pictureBytes(seed: 5)
        let float = try Self.wholeRun(try Self.int8Model(kernels: .avx2), bytes)
        let grid = try Self.wholeRun(try Self.gridModel(kernels: .avx2), bytes)
        for (level, (a, b)) in zip(float, grid).enumerated() {
            let scale = a.reduce(Float(0)) { max($0, abs($1)) }
            let worst = zip(a, b).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
            let mean = zip(a, b).reduce(Float(0)) { $0 + abs($1.0 - $1.1) } / Float(a.count)
            // Eight-bit grids on 30 tensors: a few steps of the largest value at worst, far less on average.
            #expect(worst < 0.1 * scale && mean < 0.01 * scale, "level \(level): worst \(worst), mean \(mean), largest \(scale)")
            #expect(worst > 0, "level \(level): the byte plan must differ somewhere, or it did not run")
        }
    }

    @Test func aGridOnATensorNoStepCanWriteAsBytesIsRefused() throws {
        let model = try Self.int8Model(kernels: .avx2)
        let heads = ActivationGrids(steps: ["bbox_head__level0_pw": 0.1])
        #expect {
            _ = try model.resized(inputShape: model.inputs[0].shape, firstConvolution: .int8, pointwise: .int8Every, grids: heads)
        } throws: { error in
            "\(error)".contains("cannot hold") && "\(error)".contains("bbox_head__level0_pw")
        }
        // A table made for another graph is refused, not half applied.
        #expect {
            _ = try model.resized(inputShape: model.inputs[0].shape, firstConvolution: .int8, pointwise: .int8Every,
                                  grids: ActivationGrids(steps: ["backbone__model9_pw": 0.1]))
        } throws: { error in
            "\(error)".contains("backbone__model9_pw") && "\(error)".contains("no tensor")
        }
    }

    /// The shipped table names tensors of the real graph and plans (`YuNetGrids.calibrated`, `scripts/calibrate-yunet.sh`).
    @Test func theShippedGridsPlanYuNet() throws {
        let grids = YuNetGrids.calibrated
        #expect(grids.steps.count == 1 + 2 * 11 + 2 * 3 + 2, "\(grids.steps.keys.sorted())")
        let model = try Self.int8Model(kernels: .avx2)
        let planned = try model.resized(inputShape: model.inputs[0].shape, firstConvolution: .int8, pointwise: .int8Every, grids: grids)
        #expect(planned.stepSummaries.filter { QS8DepthwiseKernel(rawValue: $0.kernel) != nil }.count == 14)
    }
}
