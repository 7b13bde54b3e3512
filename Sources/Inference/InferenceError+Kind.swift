import TFLite

extension InferenceError {
    /// What the engine maps memory for.
    public enum MemoryUse: Sendable, Equatable, CustomStringConvertible {
        /// An interpreter's arena.
        case arena
        /// The memory file behind the row buffers.
        case rowBufferFile
        /// The address range the row buffers are mapped into.
        case rowBufferAddresses
        /// One row ring's pages, mapped twice in a row.
        case rowBufferPages

        public var description: String {
            switch self {
            case .arena: "an arena"
            case .rowBufferFile: "the row buffers' memory file"
            case .rowBufferAddresses: "the row buffers' addresses"
            case .rowBufferPages: "the row buffers' pages"
            }
        }
    }

    /// What went wrong, with the values that show it. Descriptions read as
    /// one sentence; `InferenceError.description` prefixes the operator.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        // MARK: The file and its graph

        /// The model file cannot be read (`reason` is the system's).
        case unreadableModel(path: String, reason: String)
        /// The file holds `count` subgraphs; the engine runs exactly one.
        case subgraphCount(Int)
        /// A graph input is not FLOAT32.
        case inputType(TensorReference, TensorType)
        /// A graph input has data, so nothing can be written into it.
        case constantInput(TensorReference)
        /// A graph output is a constant or written by no operator.
        case outputNotComputed(TensorReference)
        /// A shape whose element count overflows or exceeds `limit`.
        case tooManyElements(TensorReference, shape: [Int], limit: Int)
        /// The arena of the planned model would exceed `limit` floats.
        case arenaTooLarge(floats: Int, limit: Int)
        /// Re-planning at another size packed a different amount of constants
        /// than the plan whose constants it shares.
        case sharedConstantsDiffer(planned: Int, shared: Int)

        // MARK: Constants

        /// The tensor must be a constant but has no data.
        case notConstant(TensorReference)
        /// A sparse constant that no DENSIFY operator expands.
        case sparseNotDensified(TensorReference)
        /// A constant's data does not hold `values` elements of `type`.
        case byteCount(TensorReference, bytes: Int, values: Int, type: TensorType)
        /// Weights of a type other than FLOAT32 (FLOAT16 goes through DEQUANTIZE).
        case weightType(TensorReference, TensorType)
        /// Paddings or sizes that are not a constant INT32 tensor.
        case notInt32Constant(TensorReference, type: TensorType, bytes: Int)

        // MARK: Every operator

        /// The builtin code has no preparation in `Operators`.
        case unsupportedOperator(BuiltinOperator)
        /// The operator writes `count` tensors; every supported one writes one.
        case outputCount(Int)
        /// The operator's options table is absent or of another operator.
        case missingOptions
        /// Input `position` is absent (or -1 where it is required).
        case missingInput(position: Int)
        /// The operator has no inputs at all.
        case noInputs
        /// The output is a constant or was written by an earlier operator.
        case writesExisting(TensorReference)
        /// An input is neither a constant, a graph input nor an earlier operator's output.
        case readsUnwritten(TensorReference)
        /// A constant where the engine needs a computed tensor.
        case constantOperand(TensorReference)
        /// Weights or bias that are not constants.
        case nonConstantWeights(TensorReference)
        /// A tensor that must be `[1, H, W, C]`.
        case notAnImage(TensorReference, shape: [Int])
        /// The declared output shape differs from the inferred one.
        case outputShape(TensorReference, declared: [Int], inferred: [Int])
        /// An output that is not FLOAT32.
        case outputType(TensorReference, TensorType)
        /// A fused activation the engine does not apply.
        case fusedActivation(FusedActivation)

        // MARK: Particular operators

        /// DEQUANTIZE of a computed tensor.
        case dequantizeNonConstant(TensorReference)
        /// DEQUANTIZE from a type other than FLOAT16.
        case dequantizeType(TensorReference, TensorType)
        /// DENSIFY of a tensor without sparsity parameters.
        case noSparsity(TensorReference)
        /// DENSIFY of data that is neither FLOAT16 nor FLOAT32 (or of an odd length).
        case densifyType(TensorReference, TensorType, bytes: Int)
        /// Block sparsity, or a traversal order that is not a permutation of the rank.
        case sparsityLayout(TensorReference, rank: Int)
        /// A sparse value index outside the `count` stored values.
        case sparseValueIndex(TensorReference, index: Int, count: Int)
        /// A dense sparsity dimension whose size is not the tensor's.
        case sparseDenseSize(TensorReference, size: Int, dimension: Int)
        /// A CSR segment `position` beyond the `bounds` segment bounds stored.
        case missingSegment(TensorReference, position: Int, bounds: Int)
        /// A CSR segment `start..<end` outside the `indices` stored indices.
        case sparseSegment(TensorReference, start: Int, end: Int, indices: Int)
        /// A CSR index outside its dimension.
        case sparseIndex(TensorReference, index: Int, dimension: Int)
        /// Convolution weights that are not of rank 4.
        case weightsRank(TensorReference, shape: [Int])
        /// A dilated convolution.
        case dilation(height: Int, width: Int)
        /// A stride below 1.
        case stride(height: Int, width: Int)
        /// Depthwise weights that are not `[1, kh, kw, C]` with multiplier 1.
        case depthwiseWeights(TensorReference, shape: [Int], multiplier: Int, channels: Int)
        /// Convolution weights for another number of input channels.
        case inputChannels(weights: TensorReference, expected: Int, got: Int)
        /// A bias without one value per output channel.
        case biasSize(TensorReference, shape: [Int], outputChannels: Int)
        /// A kernel or stride outside 1…64.
        case window(kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int)
        /// A VALID window larger than its input.
        case kernelLargerThanInput(kernel: Int, input: Int)
        /// A window that yields no output.
        case emptyOutput(height: Int, width: Int, channels: Int)
        /// A pooling filter or stride below 1.
        case poolWindow(filterHeight: Int, filterWidth: Int, strideHeight: Int, strideWidth: Int)
        /// ADD operands of different (or empty) shapes: broadcasting is unsupported.
        case operandShapes([Int], [Int])
        /// An activation of a scalar.
        case scalarInput(TensorReference)
        /// A PRELU slope that is not a constant with one value per channel.
        case slope(TensorReference, shape: [Int], input: [Int])
        /// PAD paddings that do not fit a rank-4 input (non-negative, at most 4096).
        case paddings([Int], input: [Int])
        /// A RESHAPE whose target does not hold the input's elements.
        case reshape(from: [Int], to: [Int])
        /// A CONCATENATION axis outside the rank.
        case axis(Int, rank: Int)
        /// CONCATENATION inputs that differ outside the axis.
        case concatenationShapes([Int], [Int], axis: Int)
        /// A RESIZE size that is not two positive sides (or a mode the engine does not run).
        case resizeSize([Int], alignCorners: Bool, halfPixelCenters: Bool)
        /// A DEPTH_TO_SPACE block outside 1…64 or not dividing the channels.
        case blockSize(Int, channels: Int)

        // MARK: Planning at another input shape

        /// Only single-input models are re-planned.
        case resizeNeedsSingleInput(inputs: Int)
        /// The input or the requested shape is not of rank 4.
        case resizeNeedsImage(TensorReference, declared: [Int], requested: [Int])
        /// The requested shape changes batch or channels, or has an empty side.
        case resizeShape(declared: [Int], requested: [Int])
        /// A RESIZE whose declared size is not an integral upscale of its declared input.
        case resizeNotIntegral(TensorReference, declared: [Int], size: [Int])
        /// A RESHAPE of a tensor whose batch or channels changed.
        case reshapeCannotFollow(TensorReference, declared: [Int], actual: [Int], target: [Int])
        /// A RESHAPE target where `candidates` dimensions (not exactly one) could hold the spatial extent.
        case reshapeAmbiguous(TensorReference, declared: [Int], actual: [Int], target: [Int], candidates: Int)

        // MARK: The int8 first convolution

        /// `.int8` needs one graph input; the model has `inputs`.
        case int8NeedsSingleInput(inputs: Int)
        /// `.int8` needs a FLOAT32 `[1, H, W, 3]` input.
        case int8InputShape(TensorReference, TensorType, shape: [Int])
        /// `.int8` needs the input read only by a CONV_2D, as its input.
        case int8InputReaders(TensorReference, readers: [BuiltinOperator])
        /// The first convolution has a fused ADD.
        case int8FusedAdd
        /// The first convolution applies a PRELU.
        case int8Prelu
        /// The first convolution's window exceeds the int8 kernels' table.
        case int8Window(height: Int, width: Int)

        // MARK: Static int8 activations

        /// `ActivationGrids` asks for a byte tensor the plan cannot write or read as bytes.
        case gridUnsupported(TensorReference, why: String)
        /// `ActivationGrids` names a tensor the graph does not have (a table made for another graph).
        case gridUnknownTensor(String)

        // MARK: Running

        /// A float input given to a model whose first convolution reads bytes.
        case needsByteInput
        /// `run` got `got` inputs for a model of `expected`.
        case inputCount(expected: Int, got: Int)
        /// Input `index` has `got` floats where its shape holds `expected`.
        case inputSize(index: Int, name: String, shape: [Int], got: Int)
        /// The system refused `bytes` of memory for `use`.
        case memory(MemoryUse, bytes: Int, errno: Int32)

        // MARK: Row streaming

        /// A band height below 1.
        case bandRows(Int)
        /// Row streaming needs one `[1, H, W, C]` input.
        case streamingInput(shape: [Int])
        /// No step can be streamed by rows.
        case nothingStreamed
        /// The input is read by a step that cannot be streamed.
        case inputNotStreamed
        /// Outputs of the model that are not streamed heads (nil entries).
        case outputsNotStreamed(heads: [Int?])

        public var description: String {
            switch self {
            case let .unreadableModel(path, reason): "cannot read model \(path): \(reason)"
            case let .subgraphCount(count): "the model has \(count) subgraphs; only single-subgraph models are supported"
            case let .inputType(tensor, type): "model input \(tensor) has type \(type); only FLOAT32 is supported"
            case let .constantInput(tensor): "model input \(tensor) is a constant"
            case let .outputNotComputed(tensor): "model output \(tensor) is never computed by an operator"
            case let .tooManyElements(tensor, shape, limit): "\(tensor) has shape \(shape), larger than \(limit) elements"
            case let .arenaTooLarge(floats, limit): "the model needs an arena of \(floats) floats, more than \(limit)"
            case let .sharedConstantsDiffer(planned, shared): "re-planned constants take \(planned) floats, the original plan's \(shared)"

            case let .notConstant(tensor): "\(tensor) must be a constant but has no data"
            case let .sparseNotDensified(tensor): "\(tensor) is sparse and is not densified by a DENSIFY operator"
            case let .byteCount(tensor, bytes, values, type): "\(tensor) has \(bytes) bytes for \(values) \(type) values"
            case let .weightType(tensor, type):
                "\(tensor) has type \(type); only FLOAT32 weights (or FLOAT16 through DEQUANTIZE) are supported"
            case let .notInt32Constant(tensor, type, bytes): "\(tensor) must be a constant INT32 tensor (it is \(type), \(bytes) bytes)"

            case let .unsupportedOperator(code): "the engine does not support this operator (builtin code \(code.rawValue))"
            case let .outputCount(count): "it has \(count) outputs; expected 1"
            case .missingOptions: "its options are missing"
            case let .missingInput(position): "it lacks its input \(position)"
            case .noInputs: "it has no inputs"
            case let .writesExisting(tensor): "it writes \(tensor), which is already written or constant"
            case let .readsUnwritten(tensor): "it reads \(tensor) before any operator writes it"
            case let .constantOperand(tensor): "a constant input \(tensor) is unsupported here"
            case let .nonConstantWeights(tensor): "weights and bias must be constants; \(tensor) is computed"
            case let .notAnImage(tensor, shape): "\(tensor) has shape \(shape); expected [1, H, W, C]"
            case let .outputShape(tensor, declared, inferred): "output \(tensor) is declared \(declared) but the operands give \(inferred)"
            case let .outputType(tensor, type): "output \(tensor) has type \(type); only FLOAT32 activations are supported"
            case let .fusedActivation(activation): "fused activation \(activation) is unsupported"

            case let .dequantizeNonConstant(tensor): "DEQUANTIZE of the non-constant \(tensor) is unsupported"
            case let .dequantizeType(tensor, type): "DEQUANTIZE of \(tensor) from \(type) is unsupported (only FLOAT16)"
            case let .noSparsity(tensor): "\(tensor) has no sparsity parameters"
            case let .densifyType(tensor, type, bytes): "DENSIFY of \(tensor), \(type) data of \(bytes) bytes, is unsupported"
            case let .sparsityLayout(tensor, rank):
                "DENSIFY of \(tensor): block sparsity or a traversal order not matching rank \(rank) is unsupported"
            case let .sparseValueIndex(tensor, index, count): "DENSIFY of \(tensor): value index \(index) outside \(count) values"
            case let .sparseDenseSize(tensor, size, dimension): "DENSIFY of \(tensor): dense size \(size) ≠ dimension \(dimension)"
            case let .missingSegment(tensor, position, bounds):
                "DENSIFY of \(tensor): segment \(position) is missing (\(bounds) segment bounds)"
            case let .sparseSegment(tensor, start, end, indices):
                "DENSIFY of \(tensor): segment \(start)..<\(end) outside \(indices) indices"
            case let .sparseIndex(tensor, index, dimension): "DENSIFY of \(tensor): index \(index) outside dimension \(dimension)"
            case let .weightsRank(tensor, shape): "weights \(tensor) have shape \(shape); expected rank 4"
            case let .dilation(height, width): "dilation \(height)×\(width) is unsupported"
            case let .stride(height, width): "stride \(height)×\(width) is invalid"
            case let .depthwiseWeights(tensor, shape, multiplier, channels):
                "depthwise weights \(tensor) \(shape) with depth multiplier \(multiplier) do not match \(channels) input channels (only multiplier 1 is supported)"
            case let .inputChannels(weights, expected, got): "weights \(weights) expect \(expected) input channels; the input has \(got)"
            case let .biasSize(tensor, shape, outputChannels): "bias \(tensor) \(shape) does not match \(outputChannels) output channels"
            case let .window(kernelHeight, kernelWidth, strideHeight, strideWidth):
                "kernel \(kernelHeight)×\(kernelWidth) stride \(strideHeight)×\(strideWidth) is unsupported"
            case let .kernelLargerThanInput(kernel, input): "kernel \(kernel) is larger than the input size \(input) (VALID)"
            case let .emptyOutput(height, width, channels): "empty output \(height)×\(width)×\(channels)"
            case let .poolWindow(filterHeight, filterWidth, strideHeight, strideWidth):
                "filter \(filterHeight)×\(filterWidth) stride \(strideHeight)×\(strideWidth) is invalid"
            case let .operandShapes(lhs, rhs): "operand shapes \(lhs) and \(rhs) differ (broadcasting is unsupported)"
            case let .scalarInput(tensor): "scalar input \(tensor) is unsupported"
            case let .slope(tensor, shape, input):
                "slope \(tensor) with shape \(shape) must be a constant with one value per channel of \(input)"
            case let .paddings(paddings, input):
                "paddings \(paddings) do not fit a rank-4 input \(input) (non-negative, at most 4096)"
            case let .reshape(from, to): "cannot reshape \(from) to \(to)"
            case let .axis(axis, rank): "axis \(axis) is out of range for rank \(rank)"
            case let .concatenationShapes(first, other, axis): "input shapes \(first) and \(other) differ outside axis \(axis)"
            case let .resizeSize(size, alignCorners, halfPixelCenters):
                "size \(size) (align corners \(alignCorners), half-pixel centres \(halfPixelCenters)) is invalid"
            case let .blockSize(block, channels): "block size \(block) does not divide \(channels) channels"

            case let .resizeNeedsSingleInput(inputs):
                "only single-input models can be planned at another input shape; this one has \(inputs) inputs"
            case let .resizeNeedsImage(tensor, declared, requested):
                "model input \(tensor) is declared \(declared); only [1, H, W, C] inputs can be planned at another shape, and \(requested) must have rank 4 too"
            case let .resizeShape(declared, requested):
                "input shape \(requested) must keep the declared batch and channels of \(declared) and have a positive height and width"
            case let .resizeNotIntegral(tensor, declared, size):
                "resizing \(tensor) \(declared) to \(size) is not an integral upscale, so the model cannot be planned at another input size"
            case let .reshapeCannotFollow(tensor, declared, actual, target):
                "cannot carry the input size change through a reshape of \(tensor) (declared \(declared), now \(actual)) to \(target)"
            case let .reshapeAmbiguous(tensor, declared, actual, target, candidates):
                "reshape of \(tensor) \(declared) to \(target) is ambiguous at \(actual): \(candidates) target dimensions could hold its spatial extent"

            case let .int8NeedsSingleInput(inputs):
                "an int8 first convolution needs a single [1, H, W, 3] FLOAT32 input; the model has \(inputs) inputs"
            case let .int8InputShape(tensor, type, shape):
                "an int8 first convolution needs a [1, H, W, 3] FLOAT32 input; \(tensor) is \(type) \(shape)"
            case let .int8InputReaders(tensor, readers):
                "an int8 first convolution needs an input read only by a CONV_2D; \(tensor) is read by \(readers)"
            case .int8FusedAdd: "the int8 first convolution cannot take a fused ADD"
            case .int8Prelu: "the int8 first convolution cannot apply a PRELU"
            case let .int8Window(height, width): "the int8 first convolution's \(height)×\(width) window is too large"

            case let .gridUnsupported(tensor, why): "cannot hold \(tensor) as bytes on a grid: \(why)"
            case let .gridUnknownTensor(name): "the activation grids name '\(name)', which is no tensor of the model"

            case .needsByteInput: "the model's first convolution is int8: write its input bytes with withByteInput"
            case let .inputCount(expected, got): "the model takes \(expected) inputs, got \(got)"
            case let .inputSize(index, name, shape, got):
                "input \(index) '\(name)' needs \(shape.reduce(1, *)) floats (\(shape)), got \(got)"
            case let .memory(use, bytes, errno): "the system refused \(bytes) bytes for \(use): errno \(errno)"

            case let .bandRows(rows): "bandRows must be at least 1, got \(rows)"
            case let .streamingInput(shape): "row streaming needs a single [1, H, W, C] input; the model takes \(shape)"
            case .nothingStreamed: "no step of the model can be streamed by rows"
            case .inputNotStreamed: "the model's input is read by a step that cannot be streamed by rows"
            case let .outputsNotStreamed(heads): "the model's outputs are not all streamed by rows (heads: \(heads))"
            }
        }
    }
}
