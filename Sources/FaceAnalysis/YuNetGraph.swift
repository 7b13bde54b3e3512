import Inference
import TFLite

/// YuNet-s (libfacedetection, the `yuface==2023.5.1` wheel) declared as a
/// TFLite graph for this engine; docs/YUNET.md has the layer table.
///
/// libfacedetection's network reads the picture as BGR floats 0…255, zero
/// padded at the bottom and right to multiples of 32, its first layer a
/// 3×3 stride-2 convolution with one pixel of zero padding on every side
/// (PyTorch-style, not TensorFlow's SAME). This graph reads the same
/// picture as **RGB normalised like BlazeFace's input**, `p·(2/255) − 1`,
/// so that its first layer can take the picture's bytes
/// (`FirstConvolution.int8`): the first layer's weights are scaled by 127.5
/// and their input channels reversed, and each output channel's bias
/// gains 127.5 times the sum of its weights, which computes the same
/// function (a padding pixel, `p = 0`, is `paddingValue` here). The caller
/// writes the padding and the `border` (one pixel on every side) with the
/// picture, and the graph starts with a VALID convolution (a PAD step
/// copied the whole input once more: 14 % of a 1024-px tile's CPU);
/// libfacedetection stores the first layer's weights as a 1×1 convolution
/// over 32 channels, the first 27 of which are the 3×3×3 window in (row,
/// column, channel) order — TFLite's [O, KH, KW, I] layout. Every other
/// layer is a 1×1 convolution followed by a 3×3 depthwise one (SAME, stride
/// 1), the ReLU only after the depthwise one; 2×2 stride-2 max pools; a
/// top-down neck of nearest 2× upsampling and additions; and per stride
/// (8, 16, 32) four heads without activation, run as one 64→16 pair whose
/// channels are the four heads' side by side (one pass over the neck's
/// 64 channels instead of four; each output channel is computed exactly as
/// in its own head, so the values are the same).
public enum YuNetGraph {
    /// Input height and width are padded up to multiples of this.
    public static let alignment = 32
    /// Padding pixels the caller adds on every side of the aligned picture.
    public static let border = 1
    /// The input value of a padding pixel (libfacedetection's zero, normalised).
    public static let paddingValue: Float = -1
    /// The strides of the three head levels, in output order.
    public static let strides = [8, 16, 32]
    /// Channels of the four heads of each level, in output order: class
    /// logit, objectness logit, box (dx, dy, log w, log h), five keypoints (x, y).
    public static let headChannels = [1, 1, 4, 10]
    public static let headNames = ["cls", "obj", "bbox", "kps"]
    /// Each level's output holds the four heads side by side: head `kind`
    /// is channels `headOffsets[kind]..<headOffsets[kind] + headChannels[kind]`
    /// of `levelChannels`.
    public static let headOffsets = [0, 1, 2, 6]
    public static let levelChannels = 16

    /// One convolution: `name` + `_weight` / `_bias` in the weights file.
    struct Convolution {
        var name: String
        var depthwise: Bool
        var inChannels: Int
        var outChannels: Int
        var weightCount: Int { depthwise ? outChannels * 9 : outChannels * inChannels }
    }

    /// The first layer's 1×1-over-32-channels storage of its 3×3×3 window.
    static let stem = Convolution(name: "backbone__model0_pw", depthwise: false, inChannels: 32, outChannels: 16)

    /// The 1×1 + 3×3 depthwise pair named `prefix`.
    static func pair(_ prefix: String, _ inChannels: Int, _ outChannels: Int) -> [Convolution] {
        [Convolution(name: prefix + "_pw", depthwise: false, inChannels: inChannels, outChannels: outChannels),
         Convolution(name: prefix + "_dw", depthwise: true, inChannels: outChannels, outChannels: outChannels)]
    }

    /// The backbone's pairs after the stem, (prefix, in, out): unit 0, then
    /// units 1…5 of two pairs each; a 2×2 pool after unit 0 and before
    /// units 3, 4 and 5, whose outputs feed the neck at strides 8, 16, 32.
    static let backbone: [(String, Int, Int)] = [
        ("backbone__model0_dp", 16, 16),
        ("backbone__model1_dp1", 16, 16), ("backbone__model1_dp2", 16, 32),
        ("backbone__model2_dp1", 32, 32), ("backbone__model2_dp2", 32, 64),
        ("backbone__model3_dp1", 64, 64), ("backbone__model3_dp2", 64, 64),
        ("backbone__model4_dp1", 64, 64), ("backbone__model4_dp2", 64, 64),
        ("backbone__model5_dp1", 64, 64), ("backbone__model5_dp2", 64, 64),
    ]

    static func lateral(_ level: Int) -> String { "neck__lateral_convs__\(level)" }
    static func head(_ kind: Int, _ level: Int) -> String { "bbox_head__multi_level_\(headNames[kind])__\(level)" }

    /// Every convolution of the network.
    static var convolutions: [Convolution] {
        var all = [stem]
        for (prefix, i, o) in backbone { all += pair(prefix, i, o) }
        for level in 0..<3 {
            all += pair(lateral(level), 64, 64)
            for kind in headNames.indices { all += pair(head(kind, level), 64, headChannels[kind]) }
        }
        return all
    }

    /// Every array the weights file must hold, with its element count.
    public static let arrays: [String: Int] = {
        var arrays: [String: Int] = [:]
        for convolution in convolutions {
            arrays[convolution.name + "_weight"] = convolution.weightCount
            arrays[convolution.name + "_bias"] = convolution.outChannels
        }
        return arrays
    }()

    /// The network for a `height`×`width` picture (multiples of `alignment`):
    /// its input is `[1, height + 2·border, width + 2·border, 3]`, RGB
    /// `p·(2/255) − 1` with `paddingValue` around it, its three outputs the levels (stride 8, 16, 32),
    /// each `[1, height/stride, width/stride, levelChannels]` (`headOffsets`).
    public static func model(_ weights: YuNetWeights, height: Int = 32, width: Int = 32, kernels: KernelSet = .best) throws -> Model {
        guard height >= alignment, width >= alignment, height % alignment == 0, width % alignment == 0 else {
            throw FaceAnalysisError.invalidOption("YuNet input \(height)×\(width) must be positive multiples of \(alignment)")
        }
        var builder = Builder(weights: weights)
        let input = builder.tensor("input", [1, height + 2 * border, width + 2 * border, 3])
        var x = try builder.stemConvolution(input)
        x = try builder.pair(x, backbone[0].0, relu: true)
        x = builder.maxPool(x)
        var levels: [Int] = []
        for unit in 1...5 {
            if unit >= 3 { x = builder.maxPool(x) }
            x = try builder.pair(x, backbone[2 * unit - 1].0, relu: true)
            x = try builder.pair(x, backbone[2 * unit].0, relu: true)
            if unit >= 3 { levels.append(x) }
        }
        // levels: stride 8 (model3), 16 (model4), 32 (model5).
        var outputs: [Int] = Array(repeating: 0, count: 3)
        var top = try builder.pair(levels[2], lateral(2), relu: true)
        outputs[2] = try builder.heads(top, level: 2)
        for level in [1, 0] {
            let sum = builder.add(builder.upsample(top), levels[level])
            top = try builder.pair(sum, lateral(level), relu: true)
            outputs[level] = try builder.heads(top, level: level)
        }
        let graph = TFLiteSubgraph(name: "yunet_s", tensors: builder.tensors, inputs: [input], outputs: outputs,
                                   operators: builder.operators)
        let file = try TFLiteModel(subgraphs: [graph], bytes: builder.bytes, buffers: builder.buffers, description: "YuNet-s")
        return try Model(file: file, kernels: kernels)
    }

    /// Accumulates tensors, operators and constant bytes.
    struct Builder {
        let weights: YuNetWeights
        var tensors: [TFLiteTensor] = []
        var operators: [TFLiteOperator] = []
        var bytes: [UInt8] = []
        var buffers: [Range<Int>] = [0..<0]
        /// Declared shape of every tensor, for the next operator's output shape.
        var shapes: [[Int]] = []

        init(weights: YuNetWeights) { self.weights = weights }

        mutating func tensor(_ name: String, _ shape: [Int], type: TensorType = .float32, data: [UInt8]? = nil) -> Int {
            var buffer = 0
            if let data {
                buffers.append(bytes.count..<(bytes.count + data.count))
                bytes += data
                buffer = buffers.count - 1
            }
            tensors.append(TFLiteTensor(name: name, shape: shape, type: type, buffer: buffer))
            shapes.append(shape)
            return tensors.count - 1
        }

        mutating func floats(_ name: String, _ shape: [Int], _ values: [Float]) -> Int {
            var data: [UInt8] = []
            data.reserveCapacity(values.count * 4)
            for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data += $0 } }
            return tensor(name, shape, data: data)
        }

        mutating func int32s(_ name: String, _ values: [Int32]) -> Int {
            var data: [UInt8] = []
            for value in values { withUnsafeBytes(of: value.littleEndian) { data += $0 } }
            return tensor(name, [values.count], type: .int32, data: data)
        }

        func array(_ name: String) throws -> [Float] {
            guard let values = weights.arrays[name] else { throw YuNetWeightsError.missingArray(file: weights.file, name: name) }
            return values
        }

        mutating func operation(_ code: BuiltinOperator, _ inputs: [Int], _ options: OperatorOptions, _ name: String, _ shape: [Int]) -> Int {
            let output = tensor(name, shape)
            operators.append(TFLiteOperator(code: code, inputs: inputs, outputs: [output], options: options))
            return output
        }

        /// The 3×3 stride-2 first layer (VALID on the padded input), ReLU,
        /// re-parametrised for normalised RGB input (see the type's notes).
        mutating func stemConvolution(_ x: Int) throws -> Int {
            let stored = try array(stem.name + "_weight")
            var window: [Float] = [], shifted = try array(stem.name + "_bias")
            for o in 0..<stem.outChannels {
                let bgr = stored[(o * stem.inChannels)..<(o * stem.inChannels + 27)].map { $0 }
                for tap in 0..<9 {
                    for c in 0..<3 { window.append(bgr[tap * 3 + 2 - c] * 127.5) }
                }
                shifted[o] += bgr.reduce(0, +) * 127.5
            }
            let weights = floats(stem.name + "_weight", [stem.outChannels, 3, 3, 3], window)
            let bias = floats(stem.name + "_bias", [stem.outChannels], shifted)
            let s = shapes[x]
            return operation(.conv2D, [x, weights, bias], .convolution(.init(padding: .valid, strideWidth: 2, strideHeight: 2, activation: .relu)),
                             stem.name, [1, (s[1] - 3) / 2 + 1, (s[2] - 3) / 2 + 1, stem.outChannels])
        }

        /// `prefix`'s 1×1 convolution (no activation) then its 3×3 depthwise one (ReLU when `relu`).
        mutating func pair(_ x: Int, _ prefix: String, relu: Bool) throws -> Int {
            let s = shapes[x]
            let pointwiseWeights = try array(prefix + "_pw_weight")
            let outChannels = try array(prefix + "_pw_bias").count
            guard pointwiseWeights.count == outChannels * s[3] else {
                throw YuNetWeightsError.wrongCount(file: weights.file, name: prefix + "_pw_weight", expected: outChannels * s[3], found: pointwiseWeights.count)
            }
            let pw = floats(prefix + "_pw_weight", [outChannels, 1, 1, s[3]], pointwiseWeights)
            let pwBias = floats(prefix + "_pw_bias", [outChannels], try array(prefix + "_pw_bias"))
            let y = operation(.conv2D, [x, pw, pwBias], .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none)),
                              prefix + "_pw", [1, s[1], s[2], outChannels])
            let dw = floats(prefix + "_dw_weight", [1, 3, 3, outChannels], try array(prefix + "_dw_weight"))
            let dwBias = floats(prefix + "_dw_bias", [outChannels], try array(prefix + "_dw_bias"))
            return operation(.depthwiseConv2D, [y, dw, dwBias],
                             .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, activation: relu ? .relu : .none)),
                             prefix + "_dw", [1, s[1], s[2], outChannels])
        }

        mutating func maxPool(_ x: Int) -> Int {
            let s = shapes[x]
            return operation(.maxPool2D, [x], .pool(.init(padding: .valid, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2)),
                             "pool\(operators.count)", [1, s[1] / 2, s[2] / 2, s[3]])
        }

        mutating func upsample(_ x: Int) -> Int {
            let s = shapes[x]
            let size = int32s("upsample_size\(operators.count)", [Int32(s[1] * 2), Int32(s[2] * 2)])
            return operation(.resizeNearestNeighbor, [x, size], .resizeNearestNeighbor(alignCorners: false, halfPixelCenters: false),
                             "upsample\(operators.count)", [1, s[1] * 2, s[2] * 2, s[3]])
        }

        mutating func add(_ a: Int, _ b: Int) -> Int {
            operation(.add, [a, b], .add(activation: .none), "add\(operators.count)", shapes[a])
        }

        /// The four heads of `level` as one pair: the 1×1 convolutions'
        /// filters stacked in `headNames` order, the depthwise taps
        /// interleaved per tap (libfacedetection's `[ky·3+kx][channel]`).
        mutating func heads(_ x: Int, level: Int) throws -> Int {
            let s = shapes[x]
            var pwWeights: [Float] = [], pwBias: [Float] = [], dwBias: [Float] = []
            var dwTaps = [[Float]](repeating: [], count: 9)
            for kind in headNames.indices {
                let name = head(kind, level), channels = headChannels[kind]
                let weights = try array(name + "_pw_weight")
                guard weights.count == channels * s[3] else {
                    throw YuNetWeightsError.wrongCount(file: self.weights.file, name: name + "_pw_weight", expected: channels * s[3], found: weights.count)
                }
                pwWeights += weights
                pwBias += try array(name + "_pw_bias")
                dwBias += try array(name + "_dw_bias")
                let taps = try array(name + "_dw_weight")
                for tap in 0..<9 { dwTaps[tap] += taps[(tap * channels)..<((tap + 1) * channels)] }
            }
            let prefix = "bbox_head__level\(level)"
            let c = levelChannels
            let pw = floats(prefix + "_pw_weight", [c, 1, 1, s[3]], pwWeights)
            let pwb = floats(prefix + "_pw_bias", [c], pwBias)
            let y = operation(.conv2D, [x, pw, pwb], .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none)),
                              prefix + "_pw", [1, s[1], s[2], c])
            let dw = floats(prefix + "_dw_weight", [1, 3, 3, c], dwTaps.flatMap { $0 })
            let dwb = floats(prefix + "_dw_bias", [c], dwBias)
            return operation(.depthwiseConv2D, [y, dw, dwb], .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none)),
                             prefix + "_dw", [1, s[1], s[2], c])
        }
    }
}
