/// The `dwconv3x3s1_4rows_avx512` micro-kernel's sweeps: the interior of
/// one output row (or two, or four) of a stride-1 3×3 depthwise convolution
/// on 16-lane vectors, with the row seen as one flat run of floats.
///
/// With stride 1, output float `f` of a row (pixel `f / C`, channel `f % C`)
/// reads input float `f + ky·rowFloats + kx·C` for tap (ky, kx), the same
/// offset for every channel. So the row is swept 16 floats at a time whatever
/// the channel count — no 8-channel blocks, no half-empty vectors for 24, 28
/// or 42 channels — and the weights a vector needs depend only on `f` modulo
/// the period `lcm(16, C)`: each tap's weights, the bias and the PReLU slopes
/// are packed once, repeated over a period (plus 48 floats, so four vectors
/// in a row never wrap).
///
/// Each output sums its nine taps from zero in the same order as
/// `Inference`'s 8-lane kernel (ky, then kx), then adds the bias and applies
/// the activation, so results are bit-identical.
public enum Depthwise3x3s1AVX512 {
    /// Floats per packed row (a tap's weights, the bias or the slopes).
    public static func span(channels: Int) -> Int { period(channels: channels) + 48 }

    /// `lcm(16, channels)`: after this many floats the channel pattern repeats.
    public static func period(channels: Int) -> Int {
        var a = 16, b = channels
        while b != 0 { (a, b) = (b, a % b) }
        return 16 / a * channels
    }

    /// Floats `pack` returns: nine taps, the bias, the slopes.
    public static func packedCount(channels: Int) -> Int { 11 * span(channels: channels) }

    /// Packs TFLite's `[1][3][3][C]` filter, the bias and (when PReLU
    /// follows) its slopes: row `r` holds `values[r][j % C]` for `j` in
    /// `0..<span`.
    public static func pack(weights: [Float], bias: [Float], slopes: [Float]?, channels: Int) -> [Float] {
        precondition(weights.count == 9 * channels && bias.count == channels && (slopes?.count ?? channels) == channels,
                     "Depthwise3x3s1AVX512.pack: \(weights.count) weights, \(bias.count) biases for \(channels) channels")
        let span = span(channels: channels)
        var packed = [Float](repeating: 0, count: packedCount(channels: channels))
        for j in 0..<span {
            let c = j % channels
            for tap in 0..<9 { packed[tap * span + j] = weights[tap * channels + c] }
            packed[9 * span + j] = bias[c]
            packed[10 * span + j] = slopes?[c] ?? 0
        }
        return packed
    }

    /// Writes `count` floats from `output` on: the outputs whose top-left
    /// tap is the float at the same position from `top` on, with kernel
    /// rows 1 and 2 at the same positions from `middle` and `bottom` on
    /// (pixels `channels` floats apart; a row of padding can be zeros).
    /// `table` is `pack`'s result; `activation` is applied after the bias
    /// (`.prelu`'s pointer is ignored: the slopes are in the table). Loads
    /// may run up to 15 floats past the last input the row needs (the
    /// arena's read slack covers them); stores stop at `count`.
    /// Not inlined: it must run as compiled for this target's CPU (AVX-512), not the caller's.
    @inline(never)
    public static func row(top: UnsafePointer<Float>, middle: UnsafePointer<Float>, bottom: UnsafePointer<Float>,
                           channels: Int, table: UnsafePointer<Float>,
                           count: Int, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        run((top, middle, bottom, bottom, bottom, bottom), channels, table, count, activation, (output, output, output, output),
            OneRow.self)
    }

    /// Two output rows at once (`outputs.0` from input rows 0–2, `outputs.1`
    /// from rows 1–3): each weight vector is loaded once for both, and the
    /// two middle input rows once for both, so about 1.2 loads per FMA
    /// instead of 2. Same sums in the same order as `row`.
    @inline(never)
    public static func twoRows(_ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
                               channels: Int, table: UnsafePointer<Float>, count: Int, activation: AVX512Activation,
                               outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        run((rows.0, rows.1, rows.2, rows.3, rows.3, rows.3), channels, table, count, activation,
            (outputs.0, outputs.1, outputs.1, outputs.1), TwoRows.self)
    }

    /// Four output rows at once (output `j` from input rows `j`…`j + 2`):
    /// in blocks of pixels for a multiple of 16 channels (`sweepBlocks`),
    /// else flat, each weight vector loaded once for all four and each of
    /// the six input rows once per column offset (about 0.75 loads per
    /// FMA). Same sums in the same order as `row`.
    @inline(never)
    public static func fourRows(_ rows: SixRows, channels: Int, table: UnsafePointer<Float>, count: Int,
                                activation: AVX512Activation, outputs: FourOutputs) {
        run(rows, channels, table, count, activation, outputs, FourRows.self)
    }

    public typealias SixRows = (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                         UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)
    public typealias FourOutputs = (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                             UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)

    /// The one place the activation is chosen: `R.value` output rows (from
    /// the first `R.value + 2` of `rows`, into the first `R.value` of
    /// `outputs`), in blocks for a multiple of 16 channels, else flat.
    @inline(__always)
    private static func run<R: BlockRows>(_ rows: SixRows, _ channels: Int, _ table: UnsafePointer<Float>, _ count: Int,
                                          _ activation: AVX512Activation, _ outputs: FourOutputs, _ rowCount: R.Type) {
        @inline(__always) func with<A: AVX512ActivationFunction>(_ function: A) {
            if channels % 16 == 0 {
                sweepBlocks(rows, channels, table, count, outputs, R.self, function)
            } else {
                sweepFlat(rows, channels, table, count, outputs, R.self, function)
            }
        }
        switch activation {
        case .none: with(AVX512Identity())
        case .relu: with(AVX512ReLU())
        case .relu6: with(AVX512ReLU6())
        case .prelu: with(AVX512PReLU(alpha: table + 10 * span(channels: channels)))
        }
    }

    /// The flat sweeps (`sweepFour`, `sweep`) for `R.value` rows.
    @inline(__always)
    private static func sweepFlat<R: BlockRows, A: AVX512ActivationFunction>(
        _ rows: SixRows, _ channels: Int, _ table: UnsafePointer<Float>, _ count: Int, _ outputs: FourOutputs,
        _ rowCount: R.Type, _ activation: A
    ) {
        let (r0, r1, r2, r3, _, _) = rows
        switch R.value {
        case 4: sweepFour(rows, channels, table, count, outputs, activation)
        case 2: sweep((r0, r1, r2, r3), channels, table, count, (outputs.0, outputs.1), twoRows: true, activation)
        default: sweep((r0, r1, r2, r2), channels, table, count, (outputs.0, outputs.0), twoRows: false, activation)
        }
    }

    /// `row` for input rows `rowFloats` apart from `input` on.
    public static func row(input: UnsafePointer<Float>, rowFloats: Int, channels: Int, table: UnsafePointer<Float>,
                           count: Int, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        row(top: input, middle: input + rowFloats, bottom: input + 2 * rowFloats, channels: channels, table: table,
            count: count, activation: activation, output: output)
    }

    /// The sweep; `twoRows` is a constant at each call, so each caller gets its own loop.
    @inline(__always)
    private static func sweep<A: AVX512ActivationFunction>(
        _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
        _ channels: Int, _ table: UnsafePointer<Float>, _ count: Int,
        _ outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), twoRows: Bool, _ activation: A
    ) {
        let period = period(channels: channels), span = span(channels: channels)
        let c1 = channels, c2 = 2 * channels
        let (r0, r1, r2, r3) = rows
        let bias = table + 9 * span
        /// Output vectors at `f + lane` of the top row and (when `twoRows`) the bottom row.
        @inline(__always) func sums(_ f: Int, _ phase: Int, _ lane: Int) -> (SIMD16<Float>, SIMD16<Float>) {
            var top = SIMD16<Float>.zero, bottom = SIMD16<Float>.zero
            @inline(__always) func tap(_ k: Int, _ upper: UnsafePointer<Float>, _ lower: UnsafePointer<Float>) {
                let weight = AVX512Vector.load(table + k * span + phase + lane)
                top = top.addingProduct(AVX512Vector.load(upper + f + lane), weight)
                if twoRows { bottom = bottom.addingProduct(AVX512Vector.load(lower + f + lane), weight) }
            }
            tap(0, r0, r1); tap(1, r0 + c1, r1 + c1); tap(2, r0 + c2, r1 + c2)
            tap(3, r1, r2); tap(4, r1 + c1, r2 + c1); tap(5, r1 + c2, r2 + c2)
            tap(6, r2, r3); tap(7, r2 + c1, r3 + c1); tap(8, r2 + c2, r3 + c2)
            let b = AVX512Vector.load(bias + phase + lane)
            return (activation(top + b, channel: phase + lane), twoRows ? activation(bottom + b, channel: phase + lane) : top)
        }
        @inline(__always) func store(_ values: (SIMD16<Float>, SIMD16<Float>), _ at: Int) {
            UnsafeMutableRawPointer(outputs.0 + at).storeBytes(of: values.0, as: SIMD16<Float>.self)
            if twoRows { UnsafeMutableRawPointer(outputs.1 + at).storeBytes(of: values.1, as: SIMD16<Float>.self) }
        }
        var f = 0, phase = 0
        // Four vectors (two rows: eight) at a time: independent FMA chains.
        while f + 64 <= count {
            let v0 = sums(f, phase, 0), v1 = sums(f, phase, 16), v2 = sums(f, phase, 32), v3 = sums(f, phase, 48)
            store(v0, f); store(v1, f + 16); store(v2, f + 32); store(v3, f + 48)
            f += 64
            phase += 64
            while phase >= period { phase -= period }
        }
        while f < count {
            let lanes = min(16, count - f)
            let v = sums(f, phase, 0)
            AVX512Vector.store(v.0, outputs.0 + f, lanes: lanes)
            if twoRows { AVX512Vector.store(v.1, outputs.1 + f, lanes: lanes) }
            f += 16
            phase += 16
            if phase == period { phase = 0 }
        }
    }

    @inline(__always)
    private static func sweepFour<A: AVX512ActivationFunction>(
        _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                 UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
        _ channels: Int, _ table: UnsafePointer<Float>, _ count: Int,
        _ outputs: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
        _ activation: A
    ) {
        let period = period(channels: channels), span = span(channels: channels)
        let c1 = channels, c2 = 2 * channels
        let (r0, r1, r2, r3, r4, r5) = rows
        let bias = table + 9 * span
        typealias Four = (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>)
        /// The four rows' output vectors at `f + lane`.
        @inline(__always) func sums(_ f: Int, _ phase: Int, _ lane: Int) -> Four {
            var s0 = SIMD16<Float>.zero, s1 = s0, s2 = s0, s3 = s0
            @inline(__always) func tap(_ k: Int, _ offset: Int, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                       _ c: UnsafePointer<Float>, _ d: UnsafePointer<Float>) {
                let weight = AVX512Vector.load(table + k * span + phase + lane)
                let at = f + lane + offset
                s0 = s0.addingProduct(AVX512Vector.load(a + at), weight)
                s1 = s1.addingProduct(AVX512Vector.load(b + at), weight)
                s2 = s2.addingProduct(AVX512Vector.load(c + at), weight)
                s3 = s3.addingProduct(AVX512Vector.load(d + at), weight)
            }
            tap(0, 0, r0, r1, r2, r3); tap(1, c1, r0, r1, r2, r3); tap(2, c2, r0, r1, r2, r3)
            tap(3, 0, r1, r2, r3, r4); tap(4, c1, r1, r2, r3, r4); tap(5, c2, r1, r2, r3, r4)
            tap(6, 0, r2, r3, r4, r5); tap(7, c1, r2, r3, r4, r5); tap(8, c2, r2, r3, r4, r5)
            let b = AVX512Vector.load(bias + phase + lane)
            return (activation(s0 + b, channel: phase + lane), activation(s1 + b, channel: phase + lane),
                    activation(s2 + b, channel: phase + lane), activation(s3 + b, channel: phase + lane))
        }
        @inline(__always) func store(_ values: Four, _ at: Int) {
            UnsafeMutableRawPointer(outputs.0 + at).storeBytes(of: values.0, as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(outputs.1 + at).storeBytes(of: values.1, as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(outputs.2 + at).storeBytes(of: values.2, as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(outputs.3 + at).storeBytes(of: values.3, as: SIMD16<Float>.self)
        }
        var f = 0, phase = 0
        // Two vectors (four rows: eight) at a time: independent FMA chains.
        while f + 32 <= count {
            let v0 = sums(f, phase, 0), v1 = sums(f, phase, 16)
            store(v0, f); store(v1, f + 16)
            f += 32
            phase += 32
            while phase >= period { phase -= period }
        }
        while f < count {
            let lanes = min(16, count - f)
            let v = sums(f, phase, 0)
            AVX512Vector.store(v.0, outputs.0 + f, lanes: lanes)
            AVX512Vector.store(v.1, outputs.1 + f, lanes: lanes)
            AVX512Vector.store(v.2, outputs.2 + f, lanes: lanes)
            AVX512Vector.store(v.3, outputs.3 + f, lanes: lanes)
            f += 16
            phase += 16
            if phase == period { phase = 0 }
        }
    }

    /// The sweeps for a channel count that is a multiple of 16 (YuNet-s's
    /// 16, 32 and 64; BlazeFace's 32 to 96): blocks of three pixels ×
    /// `R.value` output rows (1, 2 or 4: a type, so each specialisation has
    /// its own loop) for each 16 channels, in up to 12 accumulators, with
    /// the slice's nine weight vectors in registers. Each of the
    /// `R.value + 2` input rows' five vectors is read once for the up to
    /// three output rows it feeds: about 0.3 loads per FMA for four rows
    /// against `sweepFour`'s 1.1, which made that sweep wait on loads (a
    /// streamed 2112×1024 YuNet-s column 15 % faster; four pixels per block
    /// spilled accumulators). Each output still sums its taps from zero in
    /// (ky, kx) order: input row `j` feeds output row `j − ky` through
    /// kernel row `ky`, rows taken in order, so the bits are the same. The
    /// last pixels (fewer than three) go through the flat sweeps.
    @inline(__always)
    private static func sweepBlocks<R: BlockRows, A: AVX512ActivationFunction>(
        _ rows: SixRows, _ channels: Int, _ table: UnsafePointer<Float>, _ count: Int, _ outputs: FourOutputs,
        _ rowCount: R.Type, _ activation: A
    ) {
        let rowCount = R.value
        let span = span(channels: channels), c1 = channels
        let (r0, r1, r2, r3, r4, r5) = rows
        typealias Three = (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>)
        let pixels = count / channels
        /// Three pixels × `rowCount` rows of the 16 channels from `c`, from float `f` on.
        @inline(__always) func block(_ f: Int, _ c: Int) {
            @inline(__always) func weights(_ ky: Int) -> Three {
                (AVX512Vector.load(table + (3 * ky) * span + c), AVX512Vector.load(table + (3 * ky + 1) * span + c),
                 AVX512Vector.load(table + (3 * ky + 2) * span + c))
            }
            let k0 = weights(0), k1 = weights(1), k2 = weights(2)
            let zero = SIMD16<Float>.zero
            var a0: Three = (zero, zero, zero), a1 = a0, a2 = a0, a3 = a0
            /// Input row `x`'s pixels through kernel row `k` into output row `a`, kx in order.
            @inline(__always) func taps(_ x: UnsafePointer<Float>, _ k: Three, _ a: inout Three) {
                let p = x + f
                let v0 = AVX512Vector.load(p), v1 = AVX512Vector.load(p + c1), v2 = AVX512Vector.load(p + 2 * c1)
                a.0 = a.0.addingProduct(v0, k.0); a.0 = a.0.addingProduct(v1, k.1)
                a.1 = a.1.addingProduct(v1, k.0)
                let v3 = AVX512Vector.load(p + 3 * c1)
                a.0 = a.0.addingProduct(v2, k.2)
                a.1 = a.1.addingProduct(v2, k.1); a.1 = a.1.addingProduct(v3, k.2)
                a.2 = a.2.addingProduct(v2, k.0); a.2 = a.2.addingProduct(v3, k.1)
                let v4 = AVX512Vector.load(p + 4 * c1)
                a.2 = a.2.addingProduct(v4, k.2)
            }
            taps(r0, k0, &a0)
            taps(r1, k1, &a0)
            if rowCount > 1 { taps(r1, k0, &a1) }
            taps(r2, k2, &a0)
            if rowCount > 1 { taps(r2, k1, &a1) }
            if rowCount > 2 { taps(r2, k0, &a2) }
            if rowCount > 1 { taps(r3, k2, &a1) }
            if rowCount > 2 { taps(r3, k1, &a2); taps(r3, k0, &a3) }
            if rowCount > 2 { taps(r4, k2, &a2); taps(r4, k1, &a3) }
            if rowCount > 2 { taps(r5, k2, &a3) }
            let b = AVX512Vector.load(table + 9 * span + c)
            @inline(__always) func store(_ a: Three, _ output: UnsafeMutablePointer<Float>) {
                let o = UnsafeMutableRawPointer(output + f)
                o.storeBytes(of: activation(a.0 + b, channel: c), as: SIMD16<Float>.self)
                (o + 4 * c1).storeBytes(of: activation(a.1 + b, channel: c), as: SIMD16<Float>.self)
                (o + 8 * c1).storeBytes(of: activation(a.2 + b, channel: c), as: SIMD16<Float>.self)
            }
            store(a0, outputs.0)
            if rowCount > 1 { store(a1, outputs.1) }
            if rowCount > 2 { store(a2, outputs.2); store(a3, outputs.3) }
        }
        var pixel = 0
        while pixel + 3 <= pixels {
            var c = 0
            while c < channels {
                block(pixel * channels + c, c)
                c += 16
            }
            pixel += 3
        }
        guard pixel < pixels else { return }
        let f = pixel * channels
        sweepFlat((r0 + f, r1 + f, r2 + f, r3 + f, r4 + f, r5 + f), channels, table, count - f,
                  (outputs.0 + f, outputs.1 + f, outputs.2 + f, outputs.3 + f), R.self, activation)
    }
}

/// Output rows per block of `Depthwise3x3s1AVX512.sweepBlocks`, as a type
/// so that the count is a constant in each specialisation.
protocol BlockRows { static var value: Int { get } }
enum OneRow: BlockRows { static var value: Int { 1 } }
enum TwoRows: BlockRows { static var value: Int { 2 } }
enum FourRows: BlockRows { static var value: Int { 4 } }
