/// A hand-built one-operator TFLite file (a 1×1 CONV_2D, VALID, stride 1) whose every
/// field can be set to a hostile value. Tensors: 0 input, 1 weights, 2 bias, 3 output.
/// `depthwise(...)` makes a DEPTHWISE_CONV_2D instead, `convolution(...)` a
/// larger CONV_2D, `maxPool(...)` a MAX_POOL_2D.
public struct TinyConvModel: Sendable {
    public var version: UInt32 = 3
    public var inputShape: [Int32] = [1, 4, 4, 8]
    public var weightShape: [Int32] = [8, 1, 1, 8]
    public var biasShape: [Int32] = [8]
    public var outputShape: [Int32] = [1, 4, 4, 8]
    public var inputType: Int8 = 0
    public var weightType: Int8 = 0
    public var tensorBuffers: [UInt32] = [1, 2, 3, 4]
    public var operatorInputs: [Int32] = [0, 1, 2]
    public var operatorOutputs: [Int32] = [3]
    public var subgraphInputs: [Int32] = [0]
    public var subgraphOutputs: [Int32] = [3]
    public var opcodeIndex: UInt32 = 0
    /// `deprecated_builtin_code` (field 0) and `builtin_code` (field 3).
    public var deprecatedCode: Int8 = 3
    public var builtinCode: Int32 = 3
    public var padding: Int8 = 1
    public var stride: Int32 = 1
    public var activation: Int8 = 0
    public var weights: [Float] = (0..<64).map { Float(($0 * 7) % 11) / 10 - 0.5 }
    public var bias: [Float] = (0..<8).map { Float($0) / 4 - 1 }
    /// Replaces the weight buffer's bytes when set.
    public var weightBytes: [UInt8]?
    /// Writes DepthwiseConv2DOptions (depth multiplier 1) instead of Conv2DOptions.
    public var isDepthwise = false
    /// Writes Pool2DOptions (`poolSize` × `poolSize` window) instead of Conv2DOptions.
    public var isPool = false
    public var poolSize: Int32 = 2

    public init() {}

    /// A `kernel × kernel` DEPTHWISE_CONV_2D over `height × width × channels`,
    /// SAME (`padding` 0) or VALID (1), with seeded weights and biases.
    public static func depthwise(height: Int, width: Int, channels: Int, kernel: Int = 3, stride: Int = 1, padding: Int8,
                                 activation: Int8, seed: UInt64) -> TinyConvModel {
        var model = TinyConvModel()
        var generator = SplitMix64(seed: seed)
        let (h, w, c) = (Int32(height), Int32(width), Int32(channels))
        model.isDepthwise = true
        model.deprecatedCode = 4
        model.builtinCode = 4
        func out(_ extent: Int32) -> Int32 {
            padding == 0 ? (extent + Int32(stride) - 1) / Int32(stride) : (extent - Int32(kernel)) / Int32(stride) + 1
        }
        model.padding = padding
        model.stride = Int32(stride)
        model.activation = activation
        model.inputShape = [1, h, w, c]
        model.weightShape = [1, Int32(kernel), Int32(kernel), c]
        model.biasShape = [c]
        model.outputShape = [1, out(h), out(w), c]
        model.weights = (0..<(kernel * kernel * channels)).map { _ in generator.unitFloat() - 0.5 }
        model.bias = (0..<channels).map { _ in generator.unitFloat() - 0.5 }
        return model
    }

    /// A `size × size` MAX_POOL_2D over `height × width × channels`, SAME
    /// (`padding` 0) or VALID (1). The weight and bias tensors stay in the
    /// file, read by no operator.
    public static func maxPool(height: Int, width: Int, channels: Int, size: Int = 2, stride: Int = 2, padding: Int8) -> TinyConvModel {
        var model = TinyConvModel()
        model.isPool = true
        model.deprecatedCode = 17
        model.builtinCode = 17
        model.poolSize = Int32(size)
        func out(_ extent: Int) -> Int32 {
            Int32(padding == 0 ? (extent + stride - 1) / stride : (extent - size) / stride + 1)
        }
        model.padding = padding
        model.stride = Int32(stride)
        model.inputShape = [1, Int32(height), Int32(width), Int32(channels)]
        model.outputShape = [1, out(height), out(width), Int32(channels)]
        model.operatorInputs = [0]
        return model
    }

    /// A `kernel × kernel` CONV_2D, `inChannels` → `outChannels`, over
    /// `height × width`, SAME (`padding` 0) or VALID (1), with seeded weights and biases.
    public static func convolution(height: Int, width: Int, inChannels: Int, outChannels: Int, kernel: Int, stride: Int,
                                   padding: Int8, activation: Int8, seed: UInt64) -> TinyConvModel {
        var model = TinyConvModel()
        var generator = SplitMix64(seed: seed)
        func out(_ extent: Int) -> Int32 {
            Int32(padding == 0 ? (extent + stride - 1) / stride : (extent - kernel) / stride + 1)
        }
        model.padding = padding
        model.stride = Int32(stride)
        model.activation = activation
        model.inputShape = [1, Int32(height), Int32(width), Int32(inChannels)]
        model.weightShape = [Int32(outChannels), Int32(kernel), Int32(kernel), Int32(inChannels)]
        model.biasShape = [Int32(outChannels)]
        model.outputShape = [1, out(height), out(width), Int32(outChannels)]
        model.weights = (0..<(outChannels * kernel * kernel * inChannels)).map { _ in generator.unitFloat() - 0.5 }
        model.bias = (0..<outChannels).map { _ in generator.unitFloat() - 0.5 }
        return model
    }

    static func floatBytes(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }

    public func serialized() -> [UInt8] {
        func tensor(_ shape: [Int32], _ type: Int8, _ buffer: UInt32, _ name: String) -> FlatValue {
            .table([0: .int32s(shape), 1: .int8(type), 2: .uint32(buffer), 3: .string(name)])
        }
        // Conv2DOptions: padding, stride w/h, activation. DepthwiseConv2DOptions: padding, stride w/h, depth multiplier, activation.
        // Pool2DOptions: padding, stride w/h, filter w/h, activation.
        let options: FlatValue = isPool
            ? .table([0: .int8(padding), 1: .int32(stride), 2: .int32(stride), 3: .int32(poolSize), 4: .int32(poolSize), 5: .int8(activation)])
            : isDepthwise
            ? .table([0: .int8(padding), 1: .int32(stride), 2: .int32(stride), 3: .int32(1), 4: .int8(activation)])
            : .table([0: .int8(padding), 1: .int32(stride), 2: .int32(stride), 3: .int8(activation)])
        let op: FlatValue = .table([0: .uint32(opcodeIndex), 1: .int32s(operatorInputs), 2: .int32s(operatorOutputs),
                                    3: .uint8(isPool ? 5 : isDepthwise ? 2 : 1), 4: options])
        let subgraph: FlatValue = .table([
            0: .tables([tensor(inputShape, inputType, tensorBuffers[0], "input"), tensor(weightShape, weightType, tensorBuffers[1], "weights"),
                        tensor(biasShape, 0, tensorBuffers[2], "bias"), tensor(outputShape, 0, tensorBuffers[3], "output")]),
            1: .int32s(subgraphInputs), 2: .int32s(subgraphOutputs), 3: .tables([op]), 4: .string("main"),
        ])
        let buffers: FlatValue = .tables([
            .table([:]), .table([:]),
            .table([0: .bytes(weightBytes ?? Self.floatBytes(weights))]),
            .table([0: .bytes(Self.floatBytes(bias))]),
            .table([:]),
        ])
        let model: FlatValue = .table([
            0: .uint32(version),
            1: .tables([.table([0: .int8(deprecatedCode), 2: .int32(1), 3: .int32(builtinCode)])]),
            2: .tables([subgraph]),
            3: .string("tiny"),
            4: buffers,
        ])
        return FlatBufferWriter.serialize(model)
    }
}
