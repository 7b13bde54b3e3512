/// The part of a plan that `RowStreamingInterpreter` runs rows at a time:
/// the row-wise steps (`RowStep`) fed, directly or through other row-wise
/// steps, by the model's single `[1, H, W, C]` input, and the tensors they
/// read and write.
///
/// Steps carry arena offsets, not tensor identities; a step reads the
/// tensor the latest earlier step wrote at the same offset (the graph
/// input if none did): tensors alive at once never share memory, so no
/// other write can land there in between.
///
/// Heads are the streamed outputs: the tensors written by a streamed step
/// and read by a step that is not streamed (COPY or CONCATENATION
/// flattening a detector's heads, or a row-wise step reading such a
/// step's output) or that are graph outputs. They are numbered in the
/// order the plan writes them.
struct RowStreamingGraph {
    struct Tensor {
        var rows: TensorRows
        /// The streamed step writing it (nil: the graph input).
        var producer: Int?
        /// The streamed steps reading it: (step, which of its reads).
        var consumers: [(step: Int, read: Int)] = []
        /// Its number among the heads, if it is one.
        var head: Int?
    }

    struct StreamStep {
        var row: RowStep
        /// Tensor of each of `row.reads`.
        var reads: [Int]
        var output: Int
        /// Its index in the plan's steps (`Model.stepSummaries`).
        var planStep: Int
    }

    /// Tensor 0 is the graph input; the others in the order steps write them.
    private(set) var tensors: [Tensor]
    private(set) var steps: [StreamStep] = []
    /// Tensor of each head.
    private(set) var heads: [Int] = []
    /// Per graph output (the plan's order): the streamed tensor it is, or
    /// nil when a step that is not streamed writes it.
    private(set) var outputTensors: [Int?] = []

    /// - Throws: `InferenceError` when the model does not have a single
    ///   batch-1 NHWC input, when no step can be streamed, or when the input
    ///   itself is read by a step that cannot.
    init(plan: Plan, input: TensorDescription) throws {
        guard plan.inputOffsets.count == 1, input.shape.count == 4, input.shape[0] == 1 else {
            throw InferenceError(.streamingInput(shape: input.shape))
        }
        let inputRows = TensorRows(height: input.shape[1], width: input.shape[2], channels: input.shape[3], bytes: plan.firstConvolution == .int8)
        tensors = [Tensor(rows: inputRows)]
        /// The tensor last written at each offset; -1: written by a step that is not streamed.
        var written: [Int: Int] = [plan.inputOffsets[0]: 0]
        var headTensors: Set<Int> = []
        func unstreamedRead(_ offset: Int) {
            if let tensor = written[offset], tensor >= 0 { headTensors.insert(tensor) }
        }
        for (planStep, step) in plan.steps.enumerated() {
            if let row = RowStep(step) {
                let reads = row.reads.map { written[$0.offset] ?? -1 }
                if reads.allSatisfy({ $0 >= 0 }), let rows = row.outputRows(reads: reads.map { tensors[$0].rows }) {
                    let index = steps.count, output = tensors.count
                    for (k, tensor) in reads.enumerated() { tensors[tensor].consumers.append((index, k)) }
                    tensors.append(Tensor(rows: rows, producer: index))
                    steps.append(StreamStep(row: row, reads: reads, output: output, planStep: planStep))
                    written[row.output] = output
                    continue
                }
                row.reads.forEach { unstreamedRead($0.offset) }
                written[row.output] = -1
                continue
            }
            switch step {
            case let .copy(s): unstreamedRead(s.input); written[s.output] = -1
            case let .concatenation(s): s.inputs.forEach { unstreamedRead($0.offset) }; written[s.output] = -1
            case let .resizeBilinear(s): unstreamedRead(s.input); written[s.output] = -1
            case let .resizeNearestNeighbor(s): unstreamedRead(s.input); written[s.output] = -1  // not a power-of-two height factor
            case let .depthToSpace(s): unstreamedRead(s.input); written[s.output] = -1
            case .convolution, .int8Convolution, .int8Pointwise, .depthwise, .maxPool, .add, .activation, .pad,
                 .qs8Pointwise, .qs8Depthwise, .qs8MaxPool, .qs8Add, .qs8Quantize:
                preconditionFailure("a row-wise step kind without a RowStep")
            }
        }
        plan.outputOffsets.forEach(unstreamedRead)
        outputTensors = plan.outputOffsets.map { offset in written[offset].flatMap { $0 > 0 ? $0 : nil } }
        guard !steps.isEmpty else { throw InferenceError(.nothingStreamed) }
        guard !headTensors.contains(0) else {
            throw InferenceError(.inputNotStreamed)
        }
        heads = headTensors.sorted()
        for (number, tensor) in heads.enumerated() { tensors[tensor].head = number }
    }
}
