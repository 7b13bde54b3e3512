import Foundation
import Inference
import Testing
import _TestSupport

/// `RowStreamingInterpreter` against `Interpreter` on the same model: every
/// streamed head row carries the whole-tensor run's bits.
@Suite struct RowStreamingTests {
    /// Streams `input` (NHWC floats of the model's input) and returns each head's rows
    /// assembled in order, checking they arrive once, in order, in bands of whole rows.
    static func stream(_ streaming: RowStreamingInterpreter, _ input: [Float]) throws -> [[Float]] {
        let shape = streaming.model.inputs[0].shape
        let rowFloats = shape[2] * shape[3]
        var nextInputRow = 0
        var heads = streaming.heads.map { _ in [Float]() }
        var nextRow = streaming.heads.map { _ in 0 }
        var misplaced: [String] = []
        streaming.run { rows, buffer in
            if rows.lowerBound != nextInputRow || buffer.count != rows.count * rowFloats { misplaced.append("input \(rows)") }
            nextInputRow = rows.upperBound
            for (k, value) in input[(rows.lowerBound * rowFloats)..<(rows.upperBound * rowFloats)].enumerated() { buffer[k] = value }
        } output: { head, rows, values in
            let description = streaming.heads[head]
            if rows.lowerBound != nextRow[head] || rows.isEmpty || values.count != rows.count * description.width * description.channels {
                misplaced.append("head \(head) \(rows)")
            }
            nextRow[head] = rows.upperBound
            heads[head].append(contentsOf: values)
        }
        #expect(misplaced.isEmpty, "bands out of order or of the wrong size: \(misplaced.prefix(5))")
        #expect(nextInputRow == shape[1])
        #expect(nextRow == streaming.heads.map(\.height), "heads not streamed to their last row")
        return heads
    }

    /// Where two float arrays first differ in bits (nil: identical), without
    /// a collection diff of thousands of elements in a failure message.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> String? {
        guard a.count == b.count else { return "\(a.count) values, expected \(b.count)" }
        guard let k = a.indices.first(where: { a[$0].bitPattern != b[$0].bitPattern }) else { return nil }
        return "element \(k): \(a[k]), expected \(b[k])"
    }

    static func random(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in generator.unitFloat() * 2 - 1 }
    }

    /// The 128×128 astronaut photo repeated over `height × width`, scaled to [-1, 1] like the detector's input.
    static func photo(height: Int, width: Int) throws -> [Float] {
        let pixels = try Fixtures.bytes(Fixtures.url("inference/astronaut_128.u8"))
        var values = [Float](repeating: 0, count: height * width * 3)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { values[(y * width + x) * 3 + c] = Float(pixels[((y % 128) * 128 + x % 128) * 3 + c]) / 127.5 - 1 }
            }
        }
        return values
    }

    static let shortRange = "face_detection_short_range.tflite"

    struct Shape: CustomTestStringConvertible, Sendable {
        var height: Int, width: Int
        var testDescription: String { "\(height)×\(width)" }
    }

    static let shapes = [Shape(height: 384, width: 384), Shape(height: 1000, width: 384), Shape(height: 752, width: 1040),
                         Shape(height: 2000, width: 512), Shape(height: 400, width: 208)]

    /// The short-range detector's four heads, in plan order (scores at
    /// stride 8 and 16, then boxes at stride 8 and 16), each (flattened by
    /// its RESHAPE) the slice of the graph outputs it becomes: regressors =
    /// stride-8 ++ stride-16 boxes, classificators the same for scores.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: shapes, ParityTests.widths)
    func shortRangeHeadsMatchWholeTensorRun(_ shape: Shape, kernels: KernelSet) throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange), kernels: kernels)
        let model = try declared.resized(inputShape: [1, shape.height, shape.width, 3])
        let streaming = try RowStreamingInterpreter(model: model)
        // Heights round up: SAME convolutions of stride 2.
        let (h8, w8) = ((shape.height + 7) / 8, (shape.width + 7) / 8)
        let (h16, w16) = ((shape.height + 15) / 16, (shape.width + 15) / 16)
        #expect(streaming.heads == [.init(height: h8, width: w8, channels: 2), .init(height: h16, width: w16, channels: 6),
                                    .init(height: h8, width: w8, channels: 32), .init(height: h16, width: w16, channels: 96)])
        let whole = try Interpreter(model: model)
        #expect(model.outputs.map(\.name) == ["regressors", "classificators"])
        for (name, input) in [("random", Self.random(model.inputs[0].elementCount, seed: 15)),
                              ("photo", try Self.photo(height: shape.height, width: shape.width))] {
            let expected = try whole.run([input])
            let heads = try Self.stream(streaming, input)
            #expect(Self.firstDifference(heads[2] + heads[3], expected[0]) == nil, "\(name): regressor heads")
            #expect(Self.firstDifference(heads[0] + heads[1], expected[1]) == nil, "\(name): classificator heads")
        }
    }

    /// With an int8 first convolution (`FirstConvolution.int8`) the input
    /// streams as bytes, and the heads carry the whole-tensor int8 run's
    /// bits, with bands of any size; with int8 block projections
    /// (`PointwiseConvolution.int8`) as well.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: [Shape(height: 752, width: 1040), Shape(height: 400, width: 208)],
          ParityTests.widths)
    func int8FirstConvolutionStreamsBytes(_ shape: Shape, kernels: KernelSet) throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange), kernels: kernels)
        for pointwise in PointwiseConvolution.allCases {
            let model = try declared.resized(inputShape: [1, shape.height, shape.width, 3], firstConvolution: .int8, pointwise: pointwise)
            var generator = SplitMix64(seed: 21)
            let bytes = (0..<model.inputs[0].elementCount).map { _ in UInt8(generator.unitFloat() * 255.99) }
            let whole = try Interpreter(model: model)
            whole.withByteInput { _ = $0.update(fromContentsOf: bytes) }
            whole.invoke()
            let expected = (0..<2).map { index in whole.withOutput(index) { Array($0) } }
            let rowBytes = shape.width * 3
            for band in [5, 32] {
                let streaming = try RowStreamingInterpreter(model: model, bandRows: band)
                var heads = streaming.heads.map { _ in [Float]() }
                var nextInputRow = 0
                streaming.runBytes(input: { rows, buffer in
                    #expect(rows.lowerBound == nextInputRow && buffer.count == rows.count * rowBytes)
                    nextInputRow = rows.upperBound
                    _ = buffer.update(fromContentsOf: bytes[(rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)])
                }, output: { head, _, values in heads[head].append(contentsOf: values) })
                #expect(Self.firstDifference(heads[2] + heads[3], expected[0]) == nil, "\(pointwise) band \(band): regressor heads")
                #expect(Self.firstDifference(heads[0] + heads[1], expected[1]) == nil, "\(pointwise) band \(band): classificator heads")
            }
        }
    }

    /// On a wide input no step writes more than half a megabyte of rows per
    /// call (one row when a row is larger, three for a stride-1 depthwise
    /// step; at most `RowStreamingInterpreter.stepBytes`), so the rows a step writes are
    /// still in the core's cache (1 MiB of L2 on the machines measured) when
    /// the next step reads them: in 32-row bands of a 2048-px wide input the
    /// short-range detector's stride-2 layers would write 16 rows of 96 KiB
    /// at once. Every tensor's rows are written once, in order, from row 0,
    /// and the heads keep the whole-tensor run's bits.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: [Shape(height: 96, width: 2048), Shape(height: 400, width: 208)])
    func stepsWriteAtMostTheirBudgetPerCall(_ shape: Shape) throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange))
        let model = try declared.resized(inputShape: [1, shape.height, shape.width, 3])
        let streaming = try RowStreamingInterpreter(model: model, bandRows: 32)
        var next: [Int: Int] = [:], overBudget: [String] = [], misplaced: [String] = []
        let writes = streaming.scheduledWrites()
        for (tensor, rows, rowBytes, leastRows) in writes {
            if rows.lowerBound != next[tensor, default: 0] || rows.isEmpty { misplaced.append("tensor \(tensor) rows \(rows)") }
            next[tensor] = rows.upperBound
            if tensor > 0 && rows.count > leastRows && rows.count * rowBytes > min(RowStreamingInterpreter.stepBytes, 512 << 10) {
                overBudget.append("tensor \(tensor) rows \(rows) of \(rowBytes) bytes")
            }
        }
        #expect(writes.count > 0 && overBudget.isEmpty, "\(overBudget.count) writes over the budget: \(overBudget.prefix(3))")
        #expect(misplaced.isEmpty, "\(misplaced.prefix(3))")
        let input = try Self.photo(height: shape.height, width: shape.width)
        let expected = try Interpreter(model: model).run([input])
        let heads = try Self.stream(streaming, input)
        #expect(Self.firstDifference(heads[2] + heads[3], expected[0]) == nil && Self.firstDifference(heads[0] + heads[1], expected[1]) == nil)
    }

    /// A 16-lane stride-1 depthwise step computes at least three rows per
    /// call (`RowStreamingInterpreter.leastRows`), fewer only for its
    /// tensor's last rows, whatever the budget: on a 2048-px input the
    /// short-range detector's 1024-px rows of 24 and 28 channels (96–112
    /// KiB) got two rows a call and its deeper ones one or two, each call a
    /// window of its own. The heads keep the whole-tensor run's bits. (The
    /// 8-lane kernels keep one row as the least: `shortRangeHeadsMatchWholeTensorRun`.)
    @Test(.avx512, .enabled(if: Fixtures.modelsAvailable), arguments: [Shape(height: 96, width: 2048), Shape(height: 752, width: 1040)])
    func depthwiseStepsComputeThreeRowsPerCall(_ shape: Shape) throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange), kernels: .avx512)
        let model = try declared.resized(inputShape: [1, shape.height, shape.width, 3])
        let streaming = try RowStreamingInterpreter(model: model)
        let writes = streaming.scheduledWrites()
        var height: [Int: Int] = [:]
        for write in writes { height[write.tensor] = max(height[write.tensor, default: 0], write.rows.upperBound) }
        let depthwise = writes.filter { $0.leastRows == 3 }
        let short = depthwise.filter { $0.rows.count < 3 && $0.rows.upperBound < height[$0.tensor]! }
        #expect(Set(depthwise.map(\.tensor)).count >= 10, "the detector's stride-1 depthwise outputs: \(Set(depthwise.map(\.tensor)).count)")
        #expect(short.count == 0, "\(short.count) of \(depthwise.count) depthwise writes under three rows: \(short.prefix(3).map { "tensor \($0.tensor) rows \($0.rows)" })")
        let input = try Self.photo(height: shape.height, width: shape.width)
        let expected = try Interpreter(model: model).run([input])
        let heads = try Self.stream(streaming, input)
        #expect(Self.firstDifference(heads[2] + heads[3], expected[0]) == nil && Self.firstDifference(heads[0] + heads[1], expected[1]) == nil)
    }

    /// Rows a caller declines (`needs`) of a head no streamed step reads are
    /// neither computed nor delivered; every other row keeps its bits.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: ParityTests.widths)
    func declinedHeadRowsAreSkipped(kernels: KernelSet) throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange), kernels: kernels)
        let model = try declared.resized(inputShape: [1, 400, 208, 3])
        let input = try Self.photo(height: 400, width: 208)
        let streaming = try RowStreamingInterpreter(model: model)
        let expected = try Self.stream(streaming, input)
        // Box rows at stride 8 (head 2) only from row 20 on, none at stride 16 (head 3).
        var heads = streaming.heads.map { _ in [Float]() }
        var firstRow = streaming.heads.map { _ in Int?.none }
        var asked: Set<Int> = []
        let rowFloats = 208 * 3
        streaming.run(input: { rows, buffer in
            _ = buffer.update(fromContentsOf: input[(rows.lowerBound * rowFloats)..<(rows.upperBound * rowFloats)])
        }, needs: { head, rows in
            asked.insert(head)
            return head < 2 || (head == 2 && rows.lowerBound >= 20)
        }, output: { head, rows, values in
            if firstRow[head] == nil { firstRow[head] = rows.lowerBound }
            heads[head].append(contentsOf: values)
        })
        #expect(asked == [0, 1, 2, 3])
        #expect(firstRow == [0, 0, 20, nil])
        #expect(Self.firstDifference(heads[0], expected[0]) == nil && Self.firstDifference(heads[1], expected[1]) == nil)
        let headRow = streaming.heads[2].width * streaming.heads[2].channels
        #expect(Self.firstDifference(heads[2], Array(expected[2][(20 * headRow)...])) == nil)
        #expect(heads[3].isEmpty)
    }

    /// An interpreter sharing a larger one's arena computes what it computes alone.
    @Test(.enabled(if: Fixtures.modelsAvailable))
    func aSharedArenaGivesTheSameHeads() throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange))
        let wide = try RowStreamingInterpreter(model: declared.resized(inputShape: [1, 256, 1024, 3]))
        let model = try declared.resized(inputShape: [1, 400, 208, 3])
        let alone = try RowStreamingInterpreter(model: model)
        let shared = try RowStreamingInterpreter(model: model, sharing: wide)
        #expect(shared.arenaFloatCount == wide.arenaFloatCount && alone.arenaFloatCount < wide.arenaFloatCount)
        let input = Self.random(model.inputs[0].elementCount, seed: 8)
        _ = try Self.stream(wide, Self.random(wide.model.inputs[0].elementCount, seed: 2))
        let expected = try Self.stream(alone, input)
        let heads = try Self.stream(shared, input)
        for (a, b) in zip(heads, expected) { #expect(Self.firstDifference(a, b) == nil) }
    }

    /// A wider canvas than the shared arena holds gets an arena large enough
    /// for both (so a worker keeps one), and each computes what it computes alone.
    @Test(.enabled(if: Fixtures.modelsAvailable))
    func aLargerCanvasGrowsTheSharedArena() throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange))
        let narrowModel = try declared.resized(inputShape: [1, 400, 208, 3])
        let wideModel = try declared.resized(inputShape: [1, 256, 1024, 3])
        let narrow = try RowStreamingInterpreter(model: narrowModel)
        let wide = try RowStreamingInterpreter(model: wideModel, sharing: narrow)
        let wideAlone = try RowStreamingInterpreter(model: wideModel)
        #expect(wide.arenaFloatCount > narrow.arenaFloatCount && wide.arenaFloatCount >= wideAlone.arenaFloatCount)
        let narrowAgain = try RowStreamingInterpreter(model: narrowModel, sharing: wide)
        #expect(narrowAgain.arenaFloatCount == wide.arenaFloatCount)
        let wideInput = Self.random(wideModel.inputs[0].elementCount, seed: 4)
        let narrowInput = Self.random(narrowModel.inputs[0].elementCount, seed: 6)
        let expectedWide = try Self.stream(wideAlone, wideInput)
        let expectedNarrow = try Self.stream(narrow, narrowInput)
        for _ in 0..<2 {
            for (a, b) in zip(try Self.stream(wide, wideInput), expectedWide) { #expect(Self.firstDifference(a, b) == nil) }
            for (a, b) in zip(try Self.stream(narrowAgain, narrowInput), expectedNarrow) { #expect(Self.firstDifference(a, b) == nil) }
        }
    }

    /// One-operator models whose output is the head, streamed one to seven
    /// input rows at a time: every kernel family on windows that start and
    /// end anywhere, with and without zero padding at the top and bottom.
    struct Layer: CustomTestStringConvertible, Sendable {
        var name: String
        var model: TinyConvModel
        var testDescription: String { name }
    }

    static let layers: [Layer] = {
        var layers: [Layer] = []
        for (kernel, stride, padding) in [(3, 1, Int8(0)), (3, 2, 0), (5, 1, 0), (5, 2, 0), (3, 1, 1), (3, 2, 1), (2, 2, 1), (1, 1, 0)] {
            for outChannels in [8, 16, 24, 32, 40] {
                layers.append(Layer(name: "conv \(kernel)x\(kernel)/\(stride) \(padding == 0 ? "SAME" : "VALID") 12→\(outChannels)",
                                    model: .convolution(height: 37, width: 21, inChannels: 12, outChannels: outChannels,
                                                        kernel: kernel, stride: stride, padding: padding, activation: 1, seed: 7)))
            }
            for channels in [8, 24, 28] where kernel != 2 {
                layers.append(Layer(name: "depthwise \(kernel)x\(kernel)/\(stride) \(padding == 0 ? "SAME" : "VALID") \(channels)",
                                    model: .depthwise(height: 35, width: 27, channels: channels, kernel: kernel, stride: stride,
                                                      padding: padding, activation: 3, seed: 9)))
            }
        }
        layers.append(Layer(name: "depthwise 7x7/1 SAME 16",
                            model: .depthwise(height: 33, width: 19, channels: 16, kernel: 7, stride: 1, padding: 0, activation: 0, seed: 4)))
        return layers
    }()

    @Test(arguments: layers, ParityTests.widths)
    func singleLayersMatchWholeTensorRun(_ layer: Layer, kernels: KernelSet) throws {
        let model = try Model(bytes: layer.model.serialized(), kernels: kernels)
        let expected = try Interpreter(model: model).run([Self.random(model.inputs[0].elementCount, seed: 3)])[0]
        for band in [1, 2, 3, 7, 64] {
            let streaming = try RowStreamingInterpreter(model: model, bandRows: band)
            #expect(streaming.heads.count == 1)
            // Twice: the second run reuses the buffers the first left behind.
            for seed in [UInt64(5), 3] {
                let input = Self.random(model.inputs[0].elementCount, seed: seed)
                let heads = try Self.stream(streaming, input)
                if seed == 3 { #expect(Self.firstDifference(heads[0], expected) == nil, "band \(band)") }
            }
        }
    }

    /// Buffers hold a few rows per tensor: 4000 input rows take about the
    /// arena of 1000, far below the whole-tensor plan's. (Where the bands
    /// fall against the strides moves it: 0.91–1.23 M floats from 500 to
    /// 8000 rows at 384 px with the depthwise steps' three rows a call,
    /// 0.86–1.08 M before them.)
    @Test(.enabled(if: Fixtures.modelsAvailable))
    func arenaDoesNotGrowWithHeight() throws {
        let declared = try Model(contentsOf: Fixtures.model(Self.shortRange))
        let short = try RowStreamingInterpreter(model: declared.resized(inputShape: [1, 1000, 384, 3]))
        let tallModel = try declared.resized(inputShape: [1, 4000, 384, 3])
        let tall = try RowStreamingInterpreter(model: tallModel)
        #expect(Double(tall.arenaFloatCount) <= 1.35 * Double(short.arenaFloatCount))
        #expect(tall.arenaFloatCount * 8 < tallModel.statistics.arenaFloats)
    }

    struct Stop: Error {}

    @Test(.enabled(if: Fixtures.modelsAvailable))
    func errorsStopTheRun() throws {
        let model = try Model(contentsOf: Fixtures.model(Self.shortRange)).resized(inputShape: [1, 256, 128, 3])
        #expect(throws: InferenceError(.bandRows(0))) { try RowStreamingInterpreter(model: model, bandRows: 0) }
        let streaming = try RowStreamingInterpreter(model: model)
        var outputs = 0
        #expect(throws: Stop.self) {
            try streaming.run { rows, _ in if rows.lowerBound >= 128 { throw Stop() } } output: { _, _, _ in outputs += 1 }
        }
        #expect(outputs > 0)
        // A stopped run leaves the interpreter usable.
        let input = Self.random(model.inputs[0].elementCount, seed: 1)
        let heads = try Self.stream(streaming, input)
        let expected = try Interpreter(model: model).run([input])
        #expect(Self.firstDifference(heads[2] + heads[3], expected[0]) == nil)
    }
}
