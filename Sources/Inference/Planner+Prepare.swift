import TFLite

/// An activation before its constants are placed in the pool.
enum PendingActivation: Equatable {
    case none, relu, relu6
    case prelu(alpha: Int)
}

/// An operator after validation and shape inference, before fusion and layout.
struct Node {
    enum Kind {
        case convolution(weights: Int, bias: Int?, depthwise: Bool, geometry: WindowGeometry)
        case maxPool(WindowGeometry)
        case add
        case activation
        case pad(before: [Int])
        case copy
        case concatenation(axis: Int)
        case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
        case resizeNearestNeighbor(alignCorners: Bool, halfPixelCenters: Bool)
        case depthToSpace(block: Int)
    }

    var kind: Kind
    /// Arena tensors read (excluding a fused residual).
    var inputs: [Int]
    var output: Int
    var first: PendingActivation = .none
    var residual: Int?
    /// Channels per pixel of `residual` when a channel PAD was folded into
    /// it (fewer than the output's; the rest add zero). nil: the output's.
    var residualChannels: Int?
    var second: PendingActivation = .none
    var removed = false
}

extension Planner {
    /// Validates one operator, infers its output shape, folds it when it only
    /// transforms constants, and returns the node to execute (nil when folded).
    mutating func prepare(_ op: TFLiteOperator, index: Int) throws -> Node? {
        let label = "operator \(index) (\(op.code))"
        statistics.count(op.code.name)
        guard op.outputs.count == 1 else { throw InferenceError("\(label) has \(op.outputs.count) outputs; expected 1") }
        let output = op.outputs[0]
        guard shapes[output] == nil else {
            throw InferenceError("\(label) writes \(name(output)), which is already written or constant")
        }

        func operand(_ position: Int) throws -> Int {
            guard position < op.inputs.count, op.inputs[position] >= 0 else {
                throw InferenceError("\(label) lacks its input \(position)")
            }
            let tensor = op.inputs[position]
            guard shapes[tensor] != nil else {
                throw InferenceError("\(label) reads \(name(tensor)) before any operator writes it")
            }
            return tensor
        }
        func shape(_ tensor: Int) -> [Int] { shapes[tensor]! }
        func activationInput(_ position: Int) throws -> Int {
            let tensor = try operand(position)
            guard !isConstant(tensor) else { throw InferenceError("\(label): a constant input \(name(tensor)) is unsupported here") }
            return tensor
        }
        func image(_ tensor: Int) throws -> (h: Int, w: Int, c: Int) {
            let s = shape(tensor)
            guard s.count == 4, s[0] == 1 else {
                throw InferenceError("\(label): \(name(tensor)) has shape \(s); expected [1, H, W, C]")
            }
            return (s[1], s[2], s[3])
        }
        func setOutput(_ inferred: [Int]) throws {
            let declared = graph.tensors[output]
            // A resized plan changes spatial sizes everywhere: only the rank must still match.
            let matches = resized ? declared.shape.count == inferred.count : declared.shape == inferred
            guard declared.shape.isEmpty || matches else {
                throw InferenceError("\(label): output \(name(output)) is declared \(declared.shape) but the operands give \(inferred)")
            }
            _ = try Self.elementCount(inferred, name(output))
            shapes[output] = inferred
        }
        func requireFloat32Output() throws {
            let type = graph.tensors[output].type
            guard type == .float32 else { throw InferenceError("\(label): output \(name(output)) has type \(type); only FLOAT32 activations are supported") }
        }
        func activation(_ fused: FusedActivation) throws -> PendingActivation {
            switch fused {
            case .none: return .none
            case .relu: return .relu
            case .relu6: return .relu6
            default: throw InferenceError("\(label): fused activation \(fused) is unsupported")
            }
        }

        switch op.code {
        case .dequantize:
            let input = try operand(0)
            let tensor = graph.tensors[input]
            guard isConstant(input) else { throw InferenceError("\(label): DEQUANTIZE of the non-constant \(name(input)) is unsupported") }
            let values: [Float]
            if let densified = folded[input] {
                values = densified
            } else {
                guard tensor.type == .float16 else {
                    throw InferenceError("\(label): DEQUANTIZE from \(tensor.type) is unsupported (only FLOAT16)")
                }
                let data = file.data(ofBuffer: tensor.buffer)
                let count = try Self.elementCount(shape(input), name(input))
                guard data.count == count * 2 else {
                    throw InferenceError("\(label): \(name(input)) has \(data.count) bytes for \(count) FLOAT16 values")
                }
                values = Float16Conversion.decode(data)
            }
            try requireFloat32Output()
            try setOutput(shape(input))
            folded[output] = values
            return nil

        case .densify:
            let input = try operand(0)
            let tensor = graph.tensors[input]
            guard let sparsity = tensor.sparsity else { throw InferenceError("\(label): \(name(input)) has no sparsity parameters") }
            let data = file.data(ofBuffer: tensor.buffer)
            let values: [Float]
            switch tensor.type {
            case .float16 where data.count % 2 == 0: values = Float16Conversion.decode(data)
            case .float32 where data.count % 4 == 0: values = Float16Conversion.decodeFloat32(data)
            default: throw InferenceError("\(label): DENSIFY of \(tensor.type) data (\(data.count) bytes) is unsupported")
            }
            _ = try Self.elementCount(shape(input), name(input))
            try setOutput(shape(input))
            folded[output] = try Densify.dense(values: values, sparsity: sparsity, shape: shape(input), tensor: name(input))
            return nil

        case .conv2D, .depthwiseConv2D:
            guard case let .convolution(options) = op.options else { throw InferenceError("\(label) lacks its options") }
            let depthwise = op.code == .depthwiseConv2D
            let input = try activationInput(0)
            let weights = try operand(1)
            let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? try operand(2) : nil
            guard isConstant(weights), bias.map(isConstant) ?? true else {
                throw InferenceError("\(label): weights and bias must be constants")
            }
            let (h, w, c) = try image(input)
            let ws = shape(weights)
            guard ws.count == 4 else { throw InferenceError("\(label): weights \(name(weights)) have shape \(ws); expected rank 4") }
            guard options.dilationWidth == 1, options.dilationHeight == 1 else {
                throw InferenceError("\(label): dilation \(options.dilationHeight)×\(options.dilationWidth) is unsupported")
            }
            guard options.strideWidth >= 1, options.strideHeight >= 1 else {
                throw InferenceError("\(label): stride \(options.strideHeight)×\(options.strideWidth) is invalid")
            }
            let outC: Int
            if depthwise {
                guard options.depthMultiplier == 1, ws[0] == 1, ws[3] == c else {
                    throw InferenceError("\(label): depthwise weights \(ws) with depth multiplier \(options.depthMultiplier) do not match \(c) input channels (only multiplier 1 is supported)")
                }
                outC = c
            } else {
                guard ws[3] == c else { throw InferenceError("\(label): weights \(ws) expect \(ws[3]) input channels, the input has \(c)") }
                outC = ws[0]
            }
            if let bias { guard shape(bias).reduce(1, *) == outC else { throw InferenceError("\(label): bias \(shape(bias)) does not match \(outC) output channels") } }
            let geometry = try window(label, inHeight: h, inWidth: w, channels: c, outChannels: outC,
                                      kernelHeight: ws[1], kernelWidth: ws[2], strideHeight: options.strideHeight,
                                      strideWidth: options.strideWidth, padding: options.padding)
            try requireFloat32Output()
            try setOutput([1, geometry.outHeight, geometry.outWidth, outC])
            let outputValues: Int = geometry.outHeight * geometry.outWidth * outC
            let perOutput: Int = ws[1] * ws[2] * (depthwise ? 1 : c)
            statistics.multiplyAccumulates += outputValues * perOutput
            let weightCount: Int = ws.reduce(1, *)
            statistics.parameters += weightCount + outC
            var node = Node(kind: .convolution(weights: weights, bias: bias, depthwise: depthwise, geometry: geometry), inputs: [input], output: output)
            node.first = try activation(options.activation)
            return node

        case .maxPool2D:
            guard case let .pool(options) = op.options else { throw InferenceError("\(label) lacks its options") }
            let input = try activationInput(0)
            let (h, w, c) = try image(input)
            guard options.strideWidth >= 1, options.strideHeight >= 1, options.filterWidth >= 1, options.filterHeight >= 1 else {
                throw InferenceError("\(label): filter \(options.filterHeight)×\(options.filterWidth) stride \(options.strideHeight)×\(options.strideWidth) is invalid")
            }
            guard options.activation == .none else { throw InferenceError("\(label): fused activation \(options.activation) is unsupported") }
            let geometry = try window(label, inHeight: h, inWidth: w, channels: c, outChannels: c,
                                      kernelHeight: options.filterHeight, kernelWidth: options.filterWidth,
                                      strideHeight: options.strideHeight, strideWidth: options.strideWidth, padding: options.padding)
            try requireFloat32Output()
            try setOutput([1, geometry.outHeight, geometry.outWidth, c])
            return Node(kind: .maxPool(geometry), inputs: [input], output: output)

        case .add:
            guard case let .add(fused) = op.options else { throw InferenceError("\(label) lacks its options") }
            let lhs = try activationInput(0), rhs = try activationInput(1)
            guard shape(lhs) == shape(rhs), !shape(lhs).isEmpty else {
                throw InferenceError("\(label): operand shapes \(shape(lhs)) and \(shape(rhs)) differ (broadcasting is unsupported)")
            }
            try requireFloat32Output()
            try setOutput(shape(lhs))
            var node = Node(kind: .add, inputs: [lhs, rhs], output: output)
            node.first = try activation(fused)
            return node

        case .relu, .relu6:
            let input = try activationInput(0)
            guard !shape(input).isEmpty else { throw InferenceError("\(label): scalar input is unsupported") }
            try requireFloat32Output()
            try setOutput(shape(input))
            var node = Node(kind: .activation, inputs: [input], output: output)
            node.first = op.code == .relu ? .relu : .relu6
            return node

        case .prelu:
            let input = try activationInput(0)
            let alpha = try operand(1)
            let channels = shape(input).last ?? 0
            guard isConstant(alpha), channels > 0, shape(alpha).reduce(1, *) == channels, shape(alpha).last == channels else {
                throw InferenceError("\(label): slope \(name(alpha)) with shape \(shape(alpha)) must be a constant with one value per channel of \(shape(input))")
            }
            try requireFloat32Output()
            try setOutput(shape(input))
            var node = Node(kind: .activation, inputs: [input], output: output)
            node.first = .prelu(alpha: alpha)
            return node

        case .pad:
            let input = try activationInput(0)
            let paddings = try int32s(try operand(1))
            let s = shape(input)
            guard s.count == 4, paddings.count == 8, paddings.allSatisfy({ $0 >= 0 && $0 <= 4096 }) else {
                throw InferenceError("\(label): paddings \(paddings) do not fit a rank-4 input \(s) (non-negative, at most 4096)")
            }
            var outShape: [Int] = []
            for d in 0..<4 { outShape.append(s[d] + paddings[2 * d] + paddings[2 * d + 1]) }
            try requireFloat32Output()
            try setOutput(outShape)
            return Node(kind: .pad(before: [paddings[0], paddings[2], paddings[4], paddings[6]]), inputs: [input], output: output)

        case .reshape:
            let input = try activationInput(0)
            var target = graph.tensors[output].shape
            if target.isEmpty, case let .reshape(newShape?) = op.options { target = newShape }
            if target.isEmpty, op.inputs.count > 1, op.inputs[1] >= 0 { target = try int32s(try operand(1)) }
            if resized { target = try resizedReshapeTarget(label, declared: target, input: input) }
            let count = try Self.elementCount(shape(input), name(input))
            guard target.allSatisfy({ $0 >= 0 }), (try? Self.elementCount(target, name(output))) == count else {
                throw InferenceError("\(label): cannot reshape \(shape(input)) to \(target)")
            }
            try requireFloat32Output()
            try setOutput(target)
            return Node(kind: .copy, inputs: [input], output: output)

        case .concatenation:
            guard case let .concatenation(axisOption, fused) = op.options else { throw InferenceError("\(label) lacks its options") }
            guard fused == .none else { throw InferenceError("\(label): fused activation \(fused) is unsupported") }
            guard !op.inputs.isEmpty else { throw InferenceError("\(label) has no inputs") }
            let inputs = try op.inputs.indices.map { try activationInput($0) }
            let first = shape(inputs[0])
            let axis = axisOption < 0 ? axisOption + first.count : axisOption
            guard axis >= 0, axis < first.count else { throw InferenceError("\(label): axis \(axisOption) is out of range for rank \(first.count)") }
            var outShape = first
            outShape[axis] = 0
            for input in inputs {
                let s = shape(input)
                guard s.count == first.count, s.indices.allSatisfy({ $0 == axis || s[$0] == first[$0] }) else {
                    throw InferenceError("\(label): input shapes \(first) and \(s) differ outside axis \(axis)")
                }
                outShape[axis] += s[axis]
            }
            try requireFloat32Output()
            try setOutput(outShape)
            return Node(kind: .concatenation(axis: axis), inputs: inputs, output: output)

        case .resizeBilinear, .resizeNearestNeighbor:
            let kind: Node.Kind
            var checkSize: (Int, Int) -> Bool = { _, _ in true }
            switch op.options {
            case let .resizeBilinear(alignCorners, halfPixel):
                kind = .resizeBilinear(alignCorners: alignCorners, halfPixelCenters: halfPixel)
                checkSize = { _, _ in !(alignCorners && halfPixel) }
            case let .resizeNearestNeighbor(alignCorners, halfPixel):
                kind = .resizeNearestNeighbor(alignCorners: alignCorners, halfPixelCenters: halfPixel)
                checkSize = { height, width in height <= 1 << 16 && width <= 1 << 16 }
            default:
                throw InferenceError("\(label) lacks its options")
            }
            let input = try activationInput(0)
            let size = try int32s(try operand(1))
            let (h, w, c) = try image(input)
            guard size.count == 2, size[0] >= 1, size[1] >= 1, checkSize(size[0], size[1]) else {
                throw InferenceError("\(label): size \(size) (\(op.options)) is invalid")
            }
            var outSize = (height: size[0], width: size[1])
            if resized {
                // Keep the declared (integral) scale factor rather than the declared size.
                let declaredIn = graph.tensors[input].shape
                guard declaredIn.count == 4, declaredIn[1] >= 1, declaredIn[2] >= 1,
                      size[0] % declaredIn[1] == 0, size[1] % declaredIn[2] == 0 else {
                    throw InferenceError("\(label): resizing \(declaredIn) to \(size) is not an integral upscale, so the model cannot be planned at another input size")
                }
                outSize = (h * (size[0] / declaredIn[1]), w * (size[1] / declaredIn[2]))
            }
            try requireFloat32Output()
            try setOutput([1, outSize.height, outSize.width, c])
            return Node(kind: kind, inputs: [input], output: output)

        case .depthToSpace:
            guard case let .depthToSpace(block) = op.options else { throw InferenceError("\(label) lacks its options") }
            let input = try activationInput(0)
            let (h, w, c) = try image(input)
            guard block >= 1, block <= 64, c % (block * block) == 0 else {
                throw InferenceError("\(label): block size \(block) does not divide \(c) channels")
            }
            try requireFloat32Output()
            try setOutput([1, h * block, w * block, c / (block * block)])
            return Node(kind: .depthToSpace(block: block), inputs: [input], output: output)

        default:
            throw InferenceError("\(label): operator \(op.code) (code \(op.code.rawValue)) is not supported by the engine")
        }
    }

    /// The RESHAPE target of a resized plan: the declared target with the one
    /// dimension that holds the input's spatial extent (a multiple of the
    /// declared H·W, e.g. 2304 anchors of a 48×48 map) scaled to the new H·W.
    func resizedReshapeTarget(_ label: String, declared target: [Int], input: Int) throws -> [Int] {
        let actual = shape(input), declaredIn = graph.tensors[input].shape
        guard actual != declaredIn else { return target }
        guard actual.count == 4, declaredIn.count == 4, actual[0] == declaredIn[0], actual[3] == declaredIn[3] else {
            throw InferenceError("\(label): cannot carry the input size change through a reshape of \(name(input)) (declared \(declaredIn), now \(actual)) to \(target)")
        }
        let declaredSpatial = declaredIn[1] * declaredIn[2]
        let absorbing = target.indices.filter { declaredSpatial > 1 && target[$0] > 0 && target[$0] % declaredSpatial == 0 }
        guard absorbing.count == 1 else {
            throw InferenceError("\(label): reshape of \(declaredIn) to \(target) is ambiguous at input \(actual): \(absorbing.count) target dimensions could hold the \(declaredIn[1])×\(declaredIn[2]) spatial extent")
        }
        var resizedTarget = target
        resizedTarget[absorbing[0]] = target[absorbing[0]] / declaredSpatial * (actual[1] * actual[2])
        return resizedTarget
    }

    private func shape(_ tensor: Int) -> [Int] { shapes[tensor]! }

    /// Output size and leading padding of a windowed operator (TensorFlow SAME/VALID rules).
    func window(_ label: String, inHeight: Int, inWidth: Int, channels: Int, outChannels: Int,
                kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, padding: Padding) throws -> WindowGeometry {
        guard kernelHeight >= 1, kernelWidth >= 1, kernelHeight <= 64, kernelWidth <= 64, strideHeight <= 64, strideWidth <= 64 else {
            throw InferenceError("\(label): kernel \(kernelHeight)×\(kernelWidth) stride \(strideHeight)×\(strideWidth) is unsupported")
        }
        func axis(_ size: Int, _ kernel: Int, _ stride: Int) throws -> (out: Int, before: Int) {
            switch padding {
            case .same:
                let out = (size + stride - 1) / stride
                let total = max((out - 1) * stride + kernel - size, 0)
                return (out, total / 2)
            case .valid:
                guard size >= kernel else { throw InferenceError("\(label): kernel \(kernel) is larger than the input size \(size) (VALID)") }
                return ((size - kernel) / stride + 1, 0)
            }
        }
        let (outH, top) = try axis(inHeight, kernelHeight, strideHeight)
        let (outW, left) = try axis(inWidth, kernelWidth, strideWidth)
        guard outH >= 1, outW >= 1, channels >= 1, outChannels >= 1 else {
            throw InferenceError("\(label): empty output \(outH)×\(outW)×\(outChannels)")
        }
        return WindowGeometry(inHeight: inHeight, inWidth: inWidth, inChannels: channels, outHeight: outH, outWidth: outW,
                              outChannels: outChannels, kernelHeight: kernelHeight, kernelWidth: kernelWidth,
                              strideHeight: strideHeight, strideWidth: strideWidth, padTop: top, padLeft: left)
    }
}
