/// A plan step that can compute its output a band of rows at a time: the
/// tensors it reads (by their offset in the whole-tensor plan's arena),
/// how its output rows depend on each, and the same step rewritten for a
/// window of output rows (`window`), run by the unchanged kernels.
///
/// Row-wise kinds: CONV_2D (float, int8 on a byte input, or an int8 block projection), DEPTHWISE_CONV_2D and MAX_POOL_2D
/// (float or on bytes, `ActivationGrids`; rows from
/// their `WindowGeometry`; a fused residual row for row), ADD and
/// activations (row for row), PAD of a batch-1 tensor (rows shifted by the
/// rows padded before), RESIZE_NEAREST_NEIGHBOR growing the height by a
/// power of two (each input row gives that many output rows). Other kinds
/// (COPY, CONCATENATION, RESIZE_BILINEAR, DEPTH_TO_SPACE, other resizes) are
/// not row-wise: `init` returns nil. A new step kind
/// whose output rows follow a `RowDependency` plugs in here.
struct RowStep {
    struct Read {
        /// Offset of the tensor in the whole-tensor plan's arena.
        var offset: Int
        var dependency: RowDependency
    }

    let step: Step
    /// Input 0 is the main input; a fused residual or an ADD's right operand follows.
    let reads: [Read]
    /// Offset of the output tensor in the whole-tensor plan's arena.
    let output: Int

    init?(_ step: Step) {
        self.step = step
        switch step {
        case let .convolution(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
                + (s.epilogue.residual.map { [Read(offset: $0, dependency: .identity)] } ?? [])
            output = s.output
        case let .int8Convolution(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
            output = s.output
        case let .int8Pointwise(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
                + (s.epilogue.residual.map { [Read(offset: $0, dependency: .identity)] } ?? [])
            output = s.output
        case let .depthwise(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
                + (s.epilogue.residual.map { [Read(offset: $0, dependency: .identity)] } ?? [])
            output = s.output
        case let .qs8Pointwise(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
            output = s.output
        case let .qs8Depthwise(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
            output = s.output
        case let .qs8MaxPool(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
            output = s.output
        case let .qs8Add(s):
            reads = [Read(offset: s.lhs, dependency: .identity), Read(offset: s.rhs, dependency: .identity)]
            output = s.output
        case let .qs8Quantize(s):
            reads = [Read(offset: s.input, dependency: .identity)]
            output = s.output
        case let .maxPool(s):
            reads = [Read(offset: s.input, dependency: RowDependency(s.geometry))]
            output = s.output
        case let .add(s):
            reads = [Read(offset: s.lhs, dependency: .identity), Read(offset: s.rhs, dependency: .identity)]
            output = s.output
        case let .activation(s):
            reads = [Read(offset: s.input, dependency: .identity)]
            output = s.output
        case let .pad(s):
            guard s.inShape.0 == 1, s.outShape.0 == 1, s.before.0 == 0 else { return nil }
            reads = [Read(offset: s.input, dependency: RowDependency(kernel: 1, stride: 1, padTop: s.before.1))]
            output = s.output
        case let .resizeNearestNeighbor(s):
            guard let factor = s.rowUpsampling else { return nil }
            reads = [Read(offset: s.input, dependency: RowDependency(kernel: 1, stride: 1, padTop: 0, upsample: factor))]
            output = s.output
        case .copy, .concatenation, .resizeBilinear, .depthToSpace:
            return nil
        }
    }

    /// The output's rows, given those of the reads (nil when the reads do
    /// not have the shapes the step expects).
    func outputRows(reads shapes: [TensorRows]) -> TensorRows? {
        func windowed(_ g: WindowGeometry, _ e: Epilogue?) -> TensorRows? {
            guard shapes[0].hasShape(of: TensorRows(height: g.inHeight, width: g.inWidth, channels: g.inChannels)) else { return nil }
            if let e, e.residual != nil {
                guard shapes[1] == TensorRows(height: g.outHeight, width: g.outWidth, channels: e.residualChannels ?? g.outChannels) else { return nil }
            }
            return TensorRows(height: g.outHeight, width: g.outWidth, channels: g.outChannels)
        }
        /// A window on bytes (`ActivationGrids`): the input must be bytes.
        func bytes(_ g: WindowGeometry, out: Bool = true) -> TensorRows? {
            guard shapes[0].bytes, var rows = windowed(g, nil) else { return nil }
            rows.bytes = out
            return rows
        }
        switch step {
        case let .qs8Pointwise(s): return bytes(s.geometry, out: !s.floatOutput)
        case let .qs8Depthwise(s): return bytes(s.geometry)
        case let .qs8MaxPool(s): return bytes(s.geometry)
        case let .qs8Add(s):
            guard shapes[0] == shapes[1], shapes[0].bytes, shapes[0].height * shapes[0].rowFloats * 4 == s.count else { return nil }
            return shapes[0]
        case let .qs8Quantize(s):
            guard !shapes[0].bytes, shapes[0].height * shapes[0].rowFloats == s.count else { return nil }
            var rows = shapes[0]
            rows.bytes = true
            return rows
        case let .convolution(s): return windowed(s.geometry, s.epilogue)
        case let .int8Convolution(s):
            guard shapes[0].bytes, var rows = windowed(s.geometry, nil) else { return nil }
            rows.bytes = s.outputStep != nil
            return rows
        case let .int8Pointwise(s): return windowed(s.geometry, s.epilogue)
        case let .depthwise(s): return windowed(s.geometry, s.epilogue)
        case let .maxPool(s): return windowed(s.geometry, nil)
        case let .add(s):
            guard shapes[0] == shapes[1], shapes[0].channels == s.channels, shapes[0].height * shapes[0].rowFloats == s.count else { return nil }
            return shapes[0]
        case let .activation(s):
            guard shapes[0].channels == s.channels, shapes[0].height * shapes[0].rowFloats == s.count else { return nil }
            return shapes[0]
        case let .pad(s):
            guard shapes[0] == TensorRows(height: s.inShape.1, width: s.inShape.2, channels: s.inShape.3) else { return nil }
            return TensorRows(height: s.outShape.1, width: s.outShape.2, channels: s.outShape.3)
        case let .resizeNearestNeighbor(s):
            guard shapes[0] == TensorRows(height: s.inHeight, width: s.inWidth, channels: s.channels, bytes: s.bytes) else { return nil }
            return TensorRows(height: s.outHeight, width: s.outWidth, channels: s.channels, bytes: s.bytes)
        case .copy, .concatenation, .resizeBilinear, .depthToSpace:
            return nil
        }
    }

    /// The step computing output rows `rows` (not empty) only, for an
    /// output of `outputRowFloats` floats per row: read `i`'s rows
    /// `readRows[i]` (`dependency.inputRows(for: rows, …)`) start at arena
    /// offset `readOffsets[i]`, output row `rows.lowerBound` goes to `output`.
    /// Zero padding stays only where the window reaches past the tensor's
    /// top or bottom; `scratch` replaces the AVX-512 depthwise scratch offset.
    func window(_ rows: Range<Int>, outputRowFloats: Int, readRows: [Range<Int>], readOffsets: [Int], output: Int, scratch: Int) -> Step {
        /// The window's geometry: its rows, and the top padding left above its first input row.
        func windowed(_ g: WindowGeometry) -> WindowGeometry {
            var g = g
            g.inHeight = readRows[0].count
            g.outHeight = rows.count
            g.padTop += readRows[0].lowerBound - rows.lowerBound * g.strideHeight
            return g
        }
        switch step {
        case var .convolution(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            if s.epilogue.residual != nil { s.epilogue.residual = readOffsets[1] }
            return .convolution(s)
        case var .int8Convolution(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            s.inRowBytes = TensorRows(height: s.geometry.inHeight, width: s.geometry.inWidth, channels: s.geometry.inChannels, bytes: true).rowFloats * 4
            return .int8Convolution(s)
        case var .int8Pointwise(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            if s.epilogue.residual != nil { s.epilogue.residual = readOffsets[1] }
            return .int8Pointwise(s)
        case var .depthwise(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            if s.epilogue.residual != nil { s.epilogue.residual = readOffsets[1] }
            if s.kernel == .dwconv3x3s1_4rows_avx512 { s.scratch = scratch }
            return .depthwise(s)
        case var .maxPool(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            return .maxPool(s)
        case var .qs8Pointwise(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            return .qs8Pointwise(s)
        case var .qs8Depthwise(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            return .qs8Depthwise(s)
        case var .qs8MaxPool(s):
            s.input = readOffsets[0]
            s.output = output
            s.geometry = windowed(s.geometry)
            return .qs8MaxPool(s)
        case var .qs8Add(s):
            s.lhs = readOffsets[0]
            s.rhs = readOffsets[1]
            s.output = output
            s.count = outputRowFloats * 4 * rows.count
            return .qs8Add(s)
        case var .qs8Quantize(s):
            s.input = readOffsets[0]
            s.output = output
            s.count = outputRowFloats * 4 * rows.count
            return .qs8Quantize(s)
        case var .add(s):
            s.lhs = readOffsets[0]
            s.rhs = readOffsets[1]
            s.output = output
            s.count = outputRowFloats * rows.count
            return .add(s)
        case var .activation(s):
            s.input = readOffsets[0]
            s.output = output
            s.count = outputRowFloats * rows.count
            return .activation(s)
        case var .pad(s):
            s.input = readOffsets[0]
            s.output = output
            s.inShape.1 = readRows[0].count
            s.before.1 += readRows[0].lowerBound - rows.lowerBound
            s.outShape.1 = rows.count
            return .pad(s)
        case var .resizeNearestNeighbor(s):
            s.input = readOffsets[0]
            s.output = output
            s.outputRows = rows
            s.firstInputRow = readRows[0].lowerBound
            return .resizeNearestNeighbor(s)
        case .copy, .concatenation, .resizeBilinear, .depthToSpace:
            preconditionFailure("not a row-wise step")
        }
    }
}
