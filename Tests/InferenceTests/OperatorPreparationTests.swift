import Inference
import TFLite
import Testing

/// Every operator's preparation (Sources/Inference/Operators) refuses a
/// hostile graph with the `InferenceError` that names it: one graph built in
/// code per check, each compared with the whole error (kind, operator,
/// tensors, shapes), never with its text.
@Suite struct OperatorPreparationTests {
    /// A graph built in code: tensors, their constant data, operators.
    struct Graph: Sendable {
        var tensors: [TFLiteTensor] = []
        var bytes: [UInt8] = []
        var buffers: [Range<Int>] = [0..<0]
        var operators: [TFLiteOperator] = []
        var inputs: [Int] = []
        var outputs: [Int] = []

        /// A computed tensor (a graph input when `input`).
        @discardableResult
        mutating func tensor(_ name: String, _ shape: [Int], type: TensorType = .float32, input: Bool = false) -> TensorReference {
            tensors.append(TFLiteTensor(name: name, shape: shape, type: type, buffer: 0))
            if input { inputs.append(tensors.count - 1) }
            return TensorReference(index: tensors.count - 1, name: name)
        }

        /// A constant holding `data`.
        mutating func constant(_ name: String, _ shape: [Int], type: TensorType, data: [UInt8]) -> TensorReference {
            buffers.append(bytes.count..<(bytes.count + data.count))
            bytes += data
            tensors.append(TFLiteTensor(name: name, shape: shape, type: type, buffer: buffers.count - 1))
            return TensorReference(index: tensors.count - 1, name: name)
        }

        mutating func floats(_ name: String, _ shape: [Int]) -> TensorReference {
            let count = shape.reduce(1, *)
            return constant(name, shape, type: .float32, data: (0..<count).flatMap { withUnsafeBytes(of: Float($0 % 5).bitPattern.littleEndian, Array.init) })
        }

        mutating func int32s(_ name: String, _ values: [Int32]) -> TensorReference {
            constant(name, [values.count], type: .int32, data: values.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) })
        }

        /// Adds an operator writing `outputs` (the graph's outputs when the last operator is added).
        mutating func op(_ code: BuiltinOperator, _ inputs: [TensorReference?], _ outputs: [TensorReference], _ options: OperatorOptions = .none) {
            operators.append(TFLiteOperator(code: code, inputs: inputs.map { $0?.index ?? -1 }, outputs: outputs.map(\.index), options: options))
            self.outputs = outputs.map(\.index)
        }

        func model(inputShape: [Int]? = nil) throws -> Model {
            let file = try TFLiteModel(subgraphs: [TFLiteSubgraph(name: "main", tensors: tensors, inputs: inputs, outputs: outputs,
                                                                  operators: operators)],
                                       bytes: bytes, buffers: buffers)
            let model = try Model(file: file)
            return try inputShape.map { try model.resized(inputShape: $0) } ?? model
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var build: @Sendable () -> (Graph, InferenceError)
        /// Plan at this input shape instead of the declared one.
        var inputShape: [Int]?
        var testDescription: String { name }

        init(_ name: String, inputShape: [Int]? = nil, _ build: @escaping @Sendable () -> (Graph, InferenceError)) {
            self.name = name
            self.inputShape = inputShape
            self.build = build
        }
    }

    static let image = [1, 4, 4, 8]
    static let convolution = OperatorOptions.convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, activation: .none))

    /// The error of the graph's operator `index` (its code read from the graph).
    static func error(_ kind: InferenceError.Kind, _ graph: Graph, operator index: Int = 0, inputShape: [Int]? = nil) -> InferenceError {
        InferenceError(kind, operator: OperatorReference(index: index, code: graph.operators[index].code), inputShape: inputShape)
    }

    static let cases: [Case] = [
        // Every operator.
        Case("an operator with two outputs") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.relu, [x], [g.tensor("a", image), g.tensor("b", image)])
            return (g, error(.outputCount(2), g))
        },
        Case("an operator without its second input") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.add, [x], [g.tensor("y", image)], .add(activation: .none))
            return (g, error(.missingInput(position: 1), g))
        },
        Case("a convolution without options") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.conv2D, [x, g.floats("w", [8, 1, 1, 8])], [g.tensor("y", image)])
            return (g, error(.missingOptions, g))
        },
        Case("an INT32 activation") {
            var g = Graph(); let x = g.tensor("x", image, input: true), y = g.tensor("y", image, type: .int32)
            g.op(.relu, [x], [y])
            return (g, error(.outputType(y, .int32), g))
        },
        Case("an unsupported operator") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.logistic, [x], [g.tensor("y", image)])
            return (g, error(.unsupportedOperator(.logistic), g))
        },
        Case("a graph output no operator writes") {
            var g = Graph(); let x = g.tensor("x", image, input: true), y = g.tensor("y", image), z = g.tensor("z", image)
            g.op(.relu, [x], [y])
            g.outputs = [z.index]
            return (g, InferenceError(.outputNotComputed(z)))
        },
        // DEQUANTIZE, DENSIFY.
        Case("DEQUANTIZE of a computed tensor") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.dequantize, [x], [g.tensor("y", image)])
            return (g, error(.dequantizeNonConstant(x), g))
        },
        Case("DEQUANTIZE of INT8") {
            var g = Graph(); g.tensor("x", image, input: true); let w = g.constant("w", [4], type: .int8, data: [1, 2, 3, 4])
            g.op(.dequantize, [w], [g.tensor("y", [4])])
            return (g, error(.dequantizeType(w, .int8), g))
        },
        Case("DEQUANTIZE of FLOAT16 data one byte short") {
            var g = Graph(); g.tensor("x", image, input: true); let w = g.constant("w", [4], type: .float16, data: [0, 0, 0, 0, 0, 0, 0])
            g.op(.dequantize, [w], [g.tensor("y", [4])])
            return (g, error(.byteCount(w, bytes: 7, values: 4, type: .float16), g))
        },
        Case("DENSIFY of a dense tensor") {
            var g = Graph(); g.tensor("x", image, input: true); let w = g.floats("w", [4])
            g.op(.densify, [w], [g.tensor("y", [4])])
            return (g, error(.noSparsity(w), g))
        },
        // CONV_2D, DEPTHWISE_CONV_2D.
        Case("CONV_2D with computed weights") {
            var g = Graph(); let x = g.tensor("x", image, input: true), w = g.tensor("w", [8, 1, 1, 8], input: true)
            g.op(.conv2D, [x, w], [g.tensor("y", image)], convolution)
            return (g, error(.nonConstantWeights(w), g))
        },
        Case("CONV_2D with rank-3 weights") {
            var g = Graph(); let x = g.tensor("x", image, input: true), w = g.floats("w", [8, 1, 8])
            g.op(.conv2D, [x, w], [g.tensor("y", image)], convolution)
            return (g, error(.weightsRank(w, shape: [8, 1, 8]), g))
        },
        Case("CONV_2D dilated") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.conv2D, [x, g.floats("w", [8, 3, 3, 8])], [g.tensor("y", image)],
                 .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, dilationWidth: 2, dilationHeight: 2, activation: .none)))
            return (g, error(.dilation(height: 2, width: 2), g))
        },
        Case("CONV_2D of a rank-3 input") {
            var g = Graph(); let x = g.tensor("x", [4, 4, 8], input: true)
            g.op(.conv2D, [x, g.floats("w", [8, 1, 1, 8])], [g.tensor("y", image)], convolution)
            return (g, error(.notAnImage(x, shape: [4, 4, 8]), g))
        },
        Case("CONV_2D with a 65-tap kernel") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.conv2D, [x, g.floats("w", [8, 65, 1, 8])], [g.tensor("y", image)], convolution)
            return (g, error(.window(kernelHeight: 65, kernelWidth: 1, strideHeight: 1, strideWidth: 1), g))
        },
        Case("DEPTHWISE_CONV_2D with depth multiplier 2") {
            var g = Graph(); let x = g.tensor("x", image, input: true), w = g.floats("w", [1, 3, 3, 16])
            g.op(.depthwiseConv2D, [x, w], [g.tensor("y", [1, 4, 4, 16])],
                 .convolution(.init(padding: .same, strideWidth: 1, strideHeight: 1, depthMultiplier: 2, activation: .none)))
            return (g, error(.depthwiseWeights(w, shape: [1, 3, 3, 16], multiplier: 2, channels: 8), g))
        },
        // MAX_POOL_2D.
        Case("MAX_POOL_2D with a fused RELU") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.maxPool2D, [x], [g.tensor("y", [1, 2, 2, 8])],
                 .pool(.init(padding: .valid, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: .relu)))
            return (g, error(.fusedActivation(.relu), g))
        },
        Case("MAX_POOL_2D with an empty filter") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.maxPool2D, [x], [g.tensor("y", [1, 2, 2, 8])],
                 .pool(.init(padding: .valid, strideWidth: 2, strideHeight: 2, filterWidth: 0, filterHeight: 2)))
            return (g, error(.poolWindow(filterHeight: 2, filterWidth: 0, strideHeight: 2, strideWidth: 2), g))
        },
        // ADD, RELU, PRELU.
        Case("ADD that would broadcast") {
            var g = Graph(); let x = g.tensor("x", image, input: true), z = g.tensor("z", [1, 4, 4, 1], input: true)
            g.op(.add, [x, z], [g.tensor("y", image)], .add(activation: .none))
            return (g, error(.operandShapes(image, [1, 4, 4, 1]), g))
        },
        Case("ADD of a constant") {
            var g = Graph(); let x = g.tensor("x", image, input: true), c = g.floats("c", image)
            g.op(.add, [x, c], [g.tensor("y", image)], .add(activation: .none))
            return (g, error(.constantOperand(c), g))
        },
        Case("RELU of a scalar") {
            var g = Graph(); let x = g.tensor("x", [], input: true)
            g.op(.relu, [x], [g.tensor("y", [])])
            return (g, error(.scalarInput(x), g))
        },
        Case("PRELU with a slope per row") {
            var g = Graph(); let x = g.tensor("x", image, input: true), a = g.floats("a", [4])
            g.op(.prelu, [x, a], [g.tensor("y", image)])
            return (g, error(.slope(a, shape: [4], input: image), g))
        },
        // PAD, RESHAPE, CONCATENATION.
        Case("PAD with a negative padding") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.pad, [x, g.int32s("p", [0, 0, -1, 1, 1, 1, 0, 0])], [g.tensor("y", [1, 4, 6, 8])])
            return (g, error(.paddings([0, 0, -1, 1, 1, 1, 0, 0], input: image), g))
        },
        Case("PAD with FLOAT32 paddings") {
            var g = Graph(); let x = g.tensor("x", image, input: true), p = g.floats("p", [4, 2])
            g.op(.pad, [x, p], [g.tensor("y", image)])
            return (g, error(.notInt32Constant(p, type: .float32, bytes: 32), g))
        },
        Case("RESHAPE to another element count") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.reshape, [x], [g.tensor("y", [1, 100])], .reshape(newShape: nil))
            return (g, error(.reshape(from: image, to: [1, 100]), g))
        },
        Case("CONCATENATION on axis 4 of rank 4") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.concatenation, [x, x], [g.tensor("y", [1, 4, 4, 16])], .concatenation(axis: 4, activation: .none))
            return (g, error(.axis(4, rank: 4), g))
        },
        Case("CONCATENATION of different heights") {
            var g = Graph(); let x = g.tensor("x", image, input: true), z = g.tensor("z", [1, 2, 4, 8], input: true)
            g.op(.concatenation, [x, z], [g.tensor("y", [1, 4, 4, 16])], .concatenation(axis: 3, activation: .none))
            return (g, error(.concatenationShapes(image, [1, 2, 4, 8], axis: 3), g))
        },
        Case("CONCATENATION of nothing") {
            var g = Graph(); g.tensor("x", image, input: true)
            g.op(.concatenation, [], [g.tensor("y", image)], .concatenation(axis: 3, activation: .none))
            return (g, error(.noInputs, g))
        },
        // RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, DEPTH_TO_SPACE.
        Case("RESIZE_BILINEAR with align corners and half-pixel centres") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.resizeBilinear, [x, g.int32s("s", [8, 8])], [g.tensor("y", [1, 8, 8, 8])],
                 .resizeBilinear(alignCorners: true, halfPixelCenters: true))
            return (g, error(.resizeSize([8, 8], alignCorners: true, halfPixelCenters: true), g))
        },
        Case("RESIZE_NEAREST_NEIGHBOR to 70000 rows") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.resizeNearestNeighbor, [x, g.int32s("s", [70000, 8])], [g.tensor("y", [])],
                 .resizeNearestNeighbor(alignCorners: false, halfPixelCenters: false))
            return (g, error(.resizeSize([70000, 8], alignCorners: false, halfPixelCenters: false), g))
        },
        Case("RESIZE_BILINEAR by 3/2, planned at another size", inputShape: [1, 4, 4, 8]) {
            var g = Graph(); let x = g.tensor("x", [1, 2, 2, 8], input: true)
            g.op(.resizeBilinear, [x, g.int32s("s", [3, 3])], [g.tensor("y", [1, 3, 3, 8])],
                 .resizeBilinear(alignCorners: false, halfPixelCenters: false))
            return (g, error(.resizeNotIntegral(x, declared: [1, 2, 2, 8], size: [3, 3]), g, inputShape: [1, 4, 4, 8]))
        },
        Case("DEPTH_TO_SPACE by 3 of 8 channels") {
            var g = Graph(); let x = g.tensor("x", image, input: true)
            g.op(.depthToSpace, [x], [g.tensor("y", [])], .depthToSpace(blockSize: 3))
            return (g, error(.blockSize(3, channels: 8), g))
        },
    ]

    @Test(arguments: cases)
    func hostileGraphIsItsError(_ c: Case) throws {
        let (graph, expected) = c.build()
        let error = try #require(throws: InferenceError.self) { try graph.model(inputShape: c.inputShape) }
        #expect(error == expected)
    }

    /// A sound graph from the same builder plans: the cases fail for what they plant, not for how they are built.
    @Test func theUnplantedGraphsPlan() throws {
        var g = Graph(); let x = g.tensor("x", Self.image, input: true), z = g.tensor("z", Self.image, input: true)
        let c = g.tensor("c", Self.image), p = g.tensor("p", [1, 6, 6, 8])
        g.op(.add, [x, z], [c], .add(activation: .none))
        g.op(.pad, [c, g.int32s("pad", [0, 0, 1, 1, 1, 1, 0, 0])], [p])
        g.op(.conv2D, [p, g.floats("w", [8, 3, 3, 8]), g.floats("b", [8])], [g.tensor("y", [1, 4, 4, 8])],
             .convolution(.init(padding: .valid, strideWidth: 1, strideHeight: 1, activation: .none)))
        let model = try g.model()
        #expect(model.outputs.map(\.shape) == [Self.image])
    }
}
