#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a fully convolutional `Model` rows at a time: the caller writes
/// the input a band of rows at a time, and receives each head (the tensors
/// the row-wise part of the network ends in, `RowStreamingGraph`) a band
/// of finished rows at a time, in order, each row once. The values are
/// bit for bit those of `Interpreter` on the same model: every step runs
/// its usual kernel on a window of output rows, with the real rows above
/// and below the window in place of padding.
///
/// Each tensor lives in a row buffer holding only the rows its readers
/// still need: a ring mapped twice (`RowRingMemory`), so new rows overwrite
/// the oldest in place and any run of live rows is contiguous; nothing
/// moves. Buffer sizes come from a dry run of the schedule at `init`, so
/// memory grows with the input's width, not its height. One arena, mapped
/// once; `run` allocates nothing, and runs any number of images of the
/// planned size. Not `Sendable`: one per worker (the `Model` is shared).
public final class RowStreamingInterpreter {
    /// A streamed output: `height` rows of `width` pixels of `channels` floats (NHWC).
    public struct Head: Sendable, Equatable {
        public var height: Int
        public var width: Int
        public var channels: Int

        public init(height: Int, width: Int, channels: Int) {
            self.height = height
            self.width = width
            self.channels = channels
        }
    }

    public let model: Model
    /// The streamed outputs, in the order the plan computes them (for the
    /// short-range detector: scores at stride 8 and 16, then boxes at
    /// stride 8 and 16; heights round up, e.g. 63 rows at stride 16 for 1000).
    public let heads: [Head]
    /// Per head: which of the model's outputs it is (nil: a tensor inside
    /// the network that a step run whole reads).
    public let headOutputs: [Int?]
    /// Input rows written per band (the last band may be shorter).
    public let bandRows: Int
    /// Floats of memory under the arena (shared with `sharing`): every row
    /// buffer, the depthwise scratch and the read slack.
    public var arenaFloatCount: Int { memory.physicalFloats }

    private let graph: RowStreamingGraph
    private let memory: RowRingMemory
    /// Per tensor: the first row its buffer still holds.
    private var start: [Int]
    /// Reused per window (no allocation in `run`).
    private var readRows: [Range<Int>] = [], readOffsets: [Int] = []
    #if FACEPIPE_BENCHMARKS
    /// While `profiling(into:_:)` runs: thread CPU milliseconds per plan step.
    private var profile: UnsafeMutableBufferPointer<Double>?
    #endif
    /// Given each streamed step's float output rows as they are computed:
    /// the step's index in the plan (`Model.stepOutputNames`) and the
    /// values. For calibrating `ActivationGrids` on what a detector runs.
    package var observer: ((_ planStep: Int, _ values: UnsafeBufferPointer<Float>) -> Void)?

    /// - Parameters:
    ///   - model: a model planned at the full input size (`Model.resized(inputShape:)`).
    ///   - bandRows: input rows per band; more rows mean fewer, longer kernel calls and larger buffers.
    ///   - sharing: an interpreter of the same thread whose arena this one
    ///     uses when each of its row buffers is large enough (the two must
    ///     never run at once), so a worker streaming canvases of many sizes
    ///     keeps one arena; otherwise the new arena is made large enough for
    ///     both, so the caller can let the other go.
    /// - Throws: `InferenceError` when the model has no row-wise part
    ///   (`RowStreamingGraph`) or the arena cannot be mapped.
    public init(model: Model, bandRows: Int = 16, sharing: RowStreamingInterpreter? = nil) throws {
        guard bandRows >= 1 else { throw InferenceError(.bandRows(bandRows)) }
        let graph = try RowStreamingGraph(plan: model.plan, input: model.inputs[0])
        self.model = model
        self.graph = graph
        self.bandRows = bandRows
        heads = graph.heads.map { tensor in
            let rows = graph.tensors[tensor].rows
            return Head(height: rows.height, width: rows.width, channels: rows.channels)
        }
        headOutputs = graph.heads.map { graph.outputTensors.firstIndex(of: $0) }
        start = Array(repeating: 0, count: graph.tensors.count)
        // The dry run: the largest span of rows each buffer must hold at once.
        var spans = start
        Self.schedule(graph, bandRows: bandRows) { tensor, keep, end in
            spans[tensor] = max(spans[tensor], end - keep)
        } compute: { _, _ in }
        // Rings of just the span (rounded up to whole pages), so the arena
        // stays small enough to stay in cache: twice the span made the
        // streamed 1056×1024 short-range canvas about 10 % slower
        // (`facepipe model bench … --stream`, fastest of 80 runs,
        // alternating: 34.3–35.7 against 30.8–31.6 ms).
        let rings = spans.enumerated().map { tensor, rows in max(rows, 1) * graph.tensors[tensor].rows.rowFloats }
        var scratchFloats = 0
        for step in graph.steps {
            if case let .depthwise(d) = step.row.step, d.kernel == .dwconv3x3s1_4rows_avx512 {
                scratchFloats = max(scratchFloats, Kernels.depthwise3x3s1AVX512Scratch(d.geometry))
            }
        }
        let tail = (scratchFloats + 15) / 16 * 16 + Kernels.readSlack
        memory = try RowRingMemory.holding(rings: rings, tail: tail, sharing: sharing?.memory)
        readRows.reserveCapacity(4)
        readOffsets.reserveCapacity(4)
    }

    /// Streams one input through the network.
    ///
    /// - Parameters:
    ///   - input: writes input rows `rows` (NHWC, `width · channels` floats
    ///     per row) into the buffer; called for consecutive bands from row 0.
    ///   - needs: asked before rows `rows` of head `head` are computed, for
    ///     the heads no streamed step reads; rows it answers `false` for are
    ///     neither computed nor passed to `output` (a detector's box rows in
    ///     which no score passed). Nil: every row is computed.
    ///   - output: receives head `head`'s finished rows `rows` (valid during
    ///     the call only); each head's rows arrive once, in order, as soon
    ///     as they are computed, interleaved with other heads and input bands.
    public func run(input: (_ rows: Range<Int>, _ into: UnsafeMutableBufferPointer<Float>) throws -> Void,
                    needs: ((_ head: Int, _ rows: Range<Int>) -> Bool)? = nil,
                    output: (_ head: Int, _ rows: Range<Int>, _ values: UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        precondition(model.firstConvolution == .float32, "a model planned with an int8 first convolution streams bytes: use runBytes(input:output:)")
        try stream(input: { rows, at in
            try input(rows, UnsafeMutableBufferPointer(start: at, count: rows.count * self.graph.tensors[0].rows.rowFloats))
        }, needs: needs, output: output)
    }

    /// Bytes from one input row to the next in `runBytes`: `width ·
    /// channels` rounded up to whole floats (the rows live in float rings).
    public var inputRowBytes: Int { graph.tensors[0].rows.rowFloats * 4 }

    /// `run` for a model planned with an int8 first convolution
    /// (`FirstConvolution.int8`): `byteInput` writes input rows `rows` as
    /// bytes (NHWC, `width · channels` per row, `inputRowBytes` apart), the picture's own.
    public func runBytes(input byteInput: (_ rows: Range<Int>, _ into: UnsafeMutableBufferPointer<UInt8>) throws -> Void,
                         needs: ((_ head: Int, _ rows: Range<Int>) -> Bool)? = nil,
                         output: (_ head: Int, _ rows: Range<Int>, _ values: UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        precondition(model.firstConvolution == .int8, "runBytes(input:output:) needs a model planned with an int8 first convolution")
        let rowBytes = inputRowBytes
        try stream(input: { rows, at in
            try UnsafeMutableRawPointer(at).withMemoryRebound(to: UInt8.self, capacity: rows.count * rowBytes) {
                try byteInput(rows, UnsafeMutableBufferPointer(start: $0, count: rows.count * rowBytes))
            }
        }, needs: needs, output: output)
    }

    /// The schedule run for real: `input` writes input rows at an arena address.
    private func stream(input: (_ rows: Range<Int>, _ at: UnsafeMutablePointer<Float>) throws -> Void,
                        needs: ((_ head: Int, _ rows: Range<Int>) -> Bool)?,
                        output: (_ head: Int, _ rows: Range<Int>, _ values: UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        for index in start.indices { start[index] = 0 }
        let arena = memory.base, constants = model.constants.base
        try Self.schedule(graph, bandRows: bandRows) { tensor, keep, end in
            self.makeRoom(tensor, keep: keep, end: end)
        } compute: { tensor, rows in
            let rowFloats = self.graph.tensors[tensor].rows.rowFloats
            let at = self.offset(tensor, row: rows.lowerBound)
            guard let producer = self.graph.tensors[tensor].producer else {
                try input(rows, arena + at)
                return
            }
            let head = self.graph.tensors[tensor].head
            if let head, let needs, self.graph.tensors[tensor].consumers.isEmpty, !needs(head, rows) { return }
            self.computeWindow(producer, rows, at: at, arena: arena, constants: constants)
            if let head {
                try output(head, rows, UnsafeBufferPointer(start: arena + at, count: rows.count * rowFloats))
            }
        }
    }

    /// Arena offset of row `row` of `tensor`: where it sits in its ring.
    /// The rows after it that the ring holds follow it contiguously.
    private func offset(_ tensor: Int, row: Int) -> Int {
        memory.ringOffsets[tensor] + (row * graph.tensors[tensor].rows.rowFloats) % memory.ringFloats[tensor]
    }

    /// Before rows up to `end` of `tensor` are written: when they would
    /// overwrite rows of its ring, those before `keep` (no longer read) are let go.
    private func makeRoom(_ tensor: Int, keep: Int, end: Int) {
        let rowFloats = graph.tensors[tensor].rows.rowFloats
        guard (end - start[tensor]) * rowFloats > memory.ringFloats[tensor] else { return }
        precondition((end - keep) * rowFloats <= memory.ringFloats[tensor], "row buffer of tensor \(tensor) too small for rows \(keep)..<\(end)")
        start[tensor] = keep
    }

    /// Runs streamed step `index` on its output rows `rows`, written at arena offset `at`.
    private func computeWindow(_ index: Int, _ rows: Range<Int>, at: Int, arena: UnsafeMutablePointer<Float>,
                               constants: UnsafePointer<Float>) {
        let step = graph.steps[index]
        readRows.removeAll(keepingCapacity: true)
        readOffsets.removeAll(keepingCapacity: true)
        for (k, read) in step.reads.enumerated() {
            let needed = step.row.reads[k].dependency.inputRows(for: rows, inputHeight: graph.tensors[read].rows.height)
            precondition(needed.lowerBound >= start[read], "rows \(needed) of tensor \(read) are no longer in its buffer")
            readRows.append(needed)
            readOffsets.append(offset(read, row: needed.lowerBound))
        }
        #if FACEPIPE_BENCHMARKS
        let started = profile == nil ? 0 : threadCPUNanoseconds()
        defer { if let profile { profile[step.planStep] += Double(threadCPUNanoseconds() - started) / 1e6 } }
        #endif
        let outputRows = graph.tensors[step.output].rows
        step.row.window(rows, outputRowFloats: outputRows.rowFloats, readRows: readRows, readOffsets: readOffsets,
                        output: at, scratch: memory.tailOffset).run(arena: arena, constants: constants)
        if let observer, !outputRows.bytes {
            observer(step.planStep, UnsafeBufferPointer(start: arena + at, count: rows.count * outputRows.rowFloats))
        }
    }

    /// Bytes of output rows a step writes per call at most (one row when a
    /// row is larger): a quarter of a Zen 4 core's L2, so what a step writes
    /// is in cache when its reader runs. YuNet-s's stride-2 layers on a
    /// 2112-px column wrote 8 rows of 66 KiB per call; in 3-row calls
    /// `detect --mode yunet` over `sample.tar` took about 4 % less CPU
    /// (2.73 against 2.85 s user, medians of five alternating runs); 192 KiB
    /// measured no gain, 320 and 384 KiB the same as 256 (docs/BENCHMARKS.md).
    package static let stepBytes = 256 << 10

    /// The most output rows of `rowFloats` floats a step computes per call.
    static func stepRows(rowFloats: Int) -> Int { max(1, stepBytes / max(1, rowFloats * 4)) }

    /// The fewest output rows `step` computes per call (fewer only for its
    /// tensor's last rows), whatever the budget: three for the 16-lane
    /// stride-1 depthwise (`dwconv3x3s1_4rows_avx512`), one otherwise. Rows
    /// of more than 128 KiB (YuNet-s's 64 channels at 528 px, the
    /// short-range detector's 24–96 channels on a 1056-px canvas) got one
    /// row per call from the budget, each call with its own window setup
    /// and border pixels, and that kernel's one-row sweep loads each input
    /// vector for one output row only. Three rows: a streamed 1056×1024
    /// short-range canvas about 7 % faster, the 2112×1024 YuNet-s column
    /// 1–3 % (docs/BENCHMARKS.md); two gave about half of that, four no
    /// more than three with larger rings. The 8-lane kernels run row by row
    /// either way; with them the minimum measured no gain.
    static func leastRows(_ step: RowStep) -> Int {
        if case let .depthwise(d) = step.step, d.kernel == .dwconv3x3s1_4rows_avx512 { return 3 }
        return 1
    }

    /// Every write of the schedule `run` follows, in order: the tensor
    /// (0: an input band), its rows, the bytes of one of its rows, and the
    /// fewest rows its step computes per call (`leastRows`; 1 for an input band).
    package func scheduledWrites() -> [(tensor: Int, rows: Range<Int>, rowBytes: Int, leastRows: Int)] {
        var writes: [(tensor: Int, rows: Range<Int>, rowBytes: Int, leastRows: Int)] = []
        Self.schedule(graph, bandRows: bandRows) { _, _, _ in } compute: { tensor, rows in
            let least = self.graph.tensors[tensor].producer.map { Self.leastRows(self.graph.steps[$0].row) } ?? 1
            writes.append((tensor, rows, self.graph.tensors[tensor].rows.rowFloats * 4, least))
        }
        return writes
    }

    /// The schedule, shared by the dry run and `run`: passes over every
    /// step in plan order, each computing the output rows its reads allow
    /// but at most `stepRows` of them, so a producer and its reader take
    /// turns on rows still in cache, and not before its reads allow
    /// `leastRows` (or the rest of its tensor); when no step can go on, the next input
    /// band. Before rows `..<end` of a tensor are written, `reserve(tensor,
    /// keep, end)` is told the first row its readers still need; then
    /// `compute(tensor, rows)` writes them (tensor 0: the input band).
    private static func schedule(_ graph: RowStreamingGraph, bandRows: Int,
                                 reserve: (_ tensor: Int, _ keep: Int, _ end: Int) -> Void,
                                 compute: (_ tensor: Int, _ rows: Range<Int>) throws -> Void) rethrows {
        var produced = [Int](repeating: 0, count: graph.tensors.count)
        let tensors = graph.tensors
        func keep(_ tensor: Int) -> Int {
            var first = produced[tensor]
            for (step, read) in tensors[tensor].consumers {
                let s = graph.steps[step]
                first = min(first, s.row.reads[read].dependency.firstNeededRow(
                    next: produced[s.output], inputHeight: tensors[tensor].rows.height, outputHeight: tensors[s.output].rows.height))
            }
            return first
        }
        func write(_ tensor: Int, through end: Int) throws {
            reserve(tensor, keep(tensor), end)
            try compute(tensor, produced[tensor]..<end)
            produced[tensor] = end
        }
        let inputHeight = tensors[0].rows.height
        let leastRows = graph.steps.map { Self.leastRows($0.row) }
        let stepRows = graph.steps.indices.map { index in
            max(leastRows[index], Self.stepRows(rowFloats: tensors[graph.steps[index].output].rows.rowFloats))
        }
        while true {
            var progressed = false
            for (index, step) in graph.steps.enumerated() {
                let height = tensors[step.output].rows.height
                var end = min(height, produced[step.output] + stepRows[index])
                for (k, read) in step.reads.enumerated() {
                    end = min(end, step.row.reads[k].dependency.computableRows(
                        available: produced[read], inputHeight: tensors[read].rows.height, outputHeight: height))
                }
                // The last rows of a tensor may be fewer than `leastRows`; when every input band is in, they are all computable.
                guard end > produced[step.output], end - produced[step.output] >= min(leastRows[index], height - produced[step.output])
                else { continue }
                try write(step.output, through: end)
                progressed = true
            }
            if progressed { continue }
            guard produced[0] < inputHeight else { break }
            try write(0, through: min(inputHeight, produced[0] + bandRows))
        }
        for (tensor, description) in tensors.enumerated() {
            precondition(produced[tensor] == description.rows.height, "the row schedule left tensor \(tensor) unfinished")
        }
    }
}

// Per-step timing of streamed runs for `facepipe model bench --profile
// --stream`: compiled only with FACEPIPE_BENCHMARKS set, like
// `Interpreter.invokeProfiled`.
#if FACEPIPE_BENCHMARKS
extension RowStreamingInterpreter {
    /// Runs `body` (calls of `run` or `runBytes`), adding the thread CPU
    /// time of every streamed step's windows, in milliseconds, to
    /// `milliseconds[step]`, where `step` is the step's index in the plan
    /// (`model.stepSummaries`; steps that are not streamed get nothing).
    public func profiling<R>(into milliseconds: UnsafeMutableBufferPointer<Double>, _ body: () throws -> R) rethrows -> R {
        precondition(milliseconds.count == model.plan.steps.count, "need one timing slot per step (\(model.plan.steps.count)), got \(milliseconds.count)")
        profile = milliseconds
        defer { profile = nil }
        return try body()
    }
}
#endif
