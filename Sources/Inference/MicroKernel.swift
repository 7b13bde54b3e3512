import InferenceWide

/// The micro-kernels a CONV_2D step can run, named operation_tile_instruction
/// set: `conv1x1` for 1×1 stride-1 convolutions (GEMMs over pixels), `conv`
/// for any window, stride and padding; the tile is pixels × output
/// channels. The planner chooses one per step and packs the weights it reads
/// (`Planner.conv1x1Kernel`, `Planner.convKernel`); the interpreter
/// dispatches on it alone (`Kernels.convolution`).
///
/// All kernels of a family sum every output in the same order, so they give
/// the same bits.
enum ConvolutionKernel: String, Sendable, CaseIterable {
    /// 1×1: tiles of 6 pixels × 16 channels on 8 lanes, then 4 × 16 and 1 × 8
    /// (`Kernels.conv1x1AVX2`). Weights `[ceil(O/8)][I][8]`.
    case conv1x1_6x16_avx2
    /// 1×1: tiles of 8 pixels × 32 channels on 16 lanes (`Conv1x1AVX512`).
    /// Weights `[ceil(O/16)][I][16]`.
    case conv1x1_8x32_avx512
    /// Any window: interior pixels 4 × 16 channels (an odd last 8-channel
    /// block 4 × 8), border pixels 1 × 8, on 8 lanes. Weights
    /// `[ceil(O/8)][KH][KW][I][8]` (the "8-lane layout").
    case conv_4x16_avx2
    /// 17–24 output channels: interior pixels 4 × 24 channels (twelve
    /// accumulators share each broadcast), borders as `conv_4x16_avx2`.
    /// Weights in the 8-lane layout.
    case conv_4x24_avx2
    /// 24 output channels, no fused ADD: interior pixels 8 × 24 channels on
    /// 16 lanes (4 × 24 in rows with fewer than 8 interior pixels;
    /// `ConvInterior24AVX512`), border pixels as `conv_4x16_avx2`. Weights in
    /// the 8-lane layout, then (from `avx512Weights`) `[KH][KW][I][32]`.
    case conv_8x24_avx512_interior_avx2_border
    /// 16 output channels, no fused ADD: interior pixels 8 × 16 on 16 lanes
    /// (`ConvInterior16or32AVX512`; rows with fewer than 8 interior pixels
    /// and the borders as `conv_4x16_avx2`). Weights in the 8-lane layout,
    /// then (from `avx512Weights`) `[O/16][KH·KW·I][16]`.
    case conv_8x16_avx512_interior_avx2_border
    /// As `conv_8x16_avx512_interior_avx2_border` for 32 output channels:
    /// interior pixels 8 × 32.
    case conv_8x32_avx512_interior_avx2_border

    /// Floats of the packed weights for `g`.
    func packedCount(_ g: WindowGeometry) -> Int {
        let taps = g.kernelHeight * g.kernelWidth * g.inChannels
        return switch self {
        case .conv1x1_6x16_avx2, .conv_4x16_avx2, .conv_4x24_avx2: Self.avx2Count(g)
        case .conv1x1_8x32_avx512: Conv1x1AVX512.packedCount(inChannels: g.inChannels, outChannels: g.outChannels)
        case .conv_8x24_avx512_interior_avx2_border: Self.avx512Offset(g) + ConvInterior24AVX512.packedCount(taps: taps)
        case .conv_8x16_avx512_interior_avx2_border, .conv_8x32_avx512_interior_avx2_border:
            Self.avx512Offset(g) + Conv1x1AVX512.packedCount(inChannels: taps, outChannels: g.outChannels)
        }
    }

    /// Packs TFLite's `[O][KH][KW][I]` filter `values` for this kernel.
    func pack(_ values: [Float], _ g: WindowGeometry) -> [Float] {
        let taps = g.kernelHeight * g.kernelWidth * g.inChannels
        var packed: [Float]
        switch self {
        case .conv1x1_6x16_avx2, .conv_4x16_avx2, .conv_4x24_avx2:
            return Self.packAVX2(values, g)
        case .conv1x1_8x32_avx512:
            return Conv1x1AVX512.pack(values, inChannels: g.inChannels, outChannels: g.outChannels)
        case .conv_8x24_avx512_interior_avx2_border:
            packed = Self.packAVX2(values, g)
            packed += repeatElement(0, count: Self.avx512Offset(g) - packed.count)
            packed += ConvInterior24AVX512.pack(values, taps: taps)
        case .conv_8x16_avx512_interior_avx2_border, .conv_8x32_avx512_interior_avx2_border:
            packed = Self.packAVX2(values, g)
            packed += repeatElement(0, count: Self.avx512Offset(g) - packed.count)
            packed += Conv1x1AVX512.pack(values, inChannels: taps, outChannels: g.outChannels)
        }
        return packed
    }

    /// For the `…_avx512_interior_avx2_border` kernels: floats from the start
    /// of the packed weights to the 16-lane part (the 8-lane layout's size,
    /// rounded up to a 64-byte boundary).
    static func avx512Offset(_ g: WindowGeometry) -> Int { (avx2Count(g) + 15) / 16 * 16 }

    /// Floats of the 8-lane layout `[ceil(O/8)][KH][KW][I][8]`.
    static func avx2Count(_ g: WindowGeometry) -> Int {
        (g.outChannels + 7) / 8 * g.kernelHeight * g.kernelWidth * g.inChannels * 8
    }

    /// `[O][KH][KW][I]` → `[ceil(O/8)][KH][KW][I][8]`, zero beyond O.
    static func packAVX2(_ weights: [Float], _ g: WindowGeometry) -> [Float] {
        let perOutput = g.kernelHeight * g.kernelWidth * g.inChannels
        var packed = [Float](repeating: 0, count: avx2Count(g))
        for o in 0..<g.outChannels {
            let block = o / 8, lane = o % 8
            for k in 0..<perOutput {
                packed[(block * perOutput + k) * 8 + lane] = weights[o * perOutput + k]
            }
        }
        return packed
    }
}

/// The micro-kernels a DEPTHWISE_CONV_2D step (depth multiplier 1) can run,
/// named like `ConvolutionKernel`'s; the tile is output pixels (or rows) per
/// inner step. Chosen by `Planner.depthwiseKernel`, dispatched by
/// `Kernels.depthwise`. Every kernel sums an output's taps in the same
/// order (kernel row, then column), so all give the same bits.
enum DepthwiseKernel: String, Sendable, CaseIterable {
    /// 3×3 stride 1: interiors 8 pixels × all channels (channel-inner, each
    /// input vector loaded once for the pixels it touches), borders one pixel
    /// × 8 channels, on 8 lanes. Weights `[KH][KW][roundUp8(C)]` (the "8-lane
    /// layout").
    case dwconv3x3s1_8px_avx2
    /// 3×3 stride 2: interiors 4 pixels × all channels (channel-inner),
    /// borders one pixel. 8-lane layout.
    case dwconv3x3s2_4px_avx2
    /// 3×3, stride 3 or more: interiors 4 pixels × 8 channels, nine weight
    /// vectors in registers; borders one pixel. 8-lane layout.
    case dwconv3x3_4px_avx2
    /// 5×5, any stride: interiors 4 pixels × 8 channels; borders one pixel.
    /// 8-lane layout.
    case dwconv5x5_4px_avx2
    /// Any other window: one pixel × 8 channels at a time. 8-lane layout.
    case dwconv_1px_avx2
    /// 3×3 stride 1, no fused ADD: each output row swept as one flat run of
    /// floats on 16 lanes, four rows at a time (then two, one); border pixels
    /// from a copy of their window (`Depthwise3x3s1AVX512`). Weights, bias and
    /// PReLU slopes packed in `Depthwise3x3s1AVX512.pack`'s table.
    case dwconv3x3s1_4rows_avx512
    /// 3×3 stride 2, no fused ADD: interiors 8 pixels × 16 channels at a
    /// time (`Depthwise3x3s2AVX512`), borders as `dwconv3x3s2_4px_avx2`.
    /// The 8-lane layout, then the bias and the PReLU slopes in the same
    /// layout and 16 floats of zeros (the 16-lane loads' slack).
    case dwconv3x3s2_8px_avx512

    /// Floats of one tap's row in the 8-lane layout: the channels rounded up to 8.
    static func eightLaneRow(_ g: WindowGeometry) -> Int { (g.inChannels + 7) / 8 * 8 }

    /// Floats of the 8-lane layout `[KH][KW][roundUp8(C)]`; in
    /// `dwconv3x3s2_8px_avx512`'s table the bias row starts here, the
    /// slopes row one row later.
    static func eightLaneCount(_ g: WindowGeometry) -> Int { g.kernelHeight * g.kernelWidth * eightLaneRow(g) }

    /// Floats of the packed weights for `g`.
    func packedCount(_ g: WindowGeometry) -> Int {
        switch self {
        case .dwconv3x3s1_4rows_avx512: Depthwise3x3s1AVX512.packedCount(channels: g.inChannels)
        case .dwconv3x3s2_8px_avx512: Self.eightLaneCount(g) + 2 * Self.eightLaneRow(g) + 16
        default: Self.eightLaneCount(g)
        }
    }

    /// Packs TFLite's `[1][KH][KW][C]` filter `values` for this kernel;
    /// `bias` and `slopes` (PReLU after the bias) go into the AVX-512 table.
    func pack(_ values: [Float], bias: [Float], slopes: [Float]?, _ g: WindowGeometry) -> [Float] {
        let channels = g.inChannels
        if self == .dwconv3x3s1_4rows_avx512 {
            return Depthwise3x3s1AVX512.pack(weights: values, bias: bias, slopes: slopes, channels: channels)
        }
        // `[1][KH][KW][C]` → `[KH][KW][roundUp8(C)]`, zero beyond C.
        let padded = Self.eightLaneRow(g)
        var packed = [Float](repeating: 0, count: packedCount(g))
        for tap in 0..<(g.kernelHeight * g.kernelWidth) {
            for c in 0..<channels { packed[tap * padded + c] = values[tap * channels + c] }
        }
        if self == .dwconv3x3s2_8px_avx512 {
            let biasRow = Self.eightLaneCount(g)
            for c in 0..<channels {
                packed[biasRow + c] = bias[c]
                packed[biasRow + padded + c] = slopes?[c] ?? 0
            }
        }
        return packed
    }
}

/// The micro-kernels a MAX_POOL_2D step can run, named like
/// `ConvolutionKernel`'s. Chosen by `Planner.maxPoolKernel`, dispatched by
/// `Kernels.maxPool`. A maximum is exact, and both kernels take it in the
/// same order (`Kernels.maximum`), so they give the same bits.
enum PoolKernel: String, Sendable, CaseIterable {
    /// Any window: one pixel × 8 channels at a time.
    case maxpool_1px_avx2
    /// 2×2 stride 2: the whole windows of a row one pixel × 16 channels at a
    /// time (`MaxPool2x2s2AVX512`); windows cut by padding as `maxpool_1px_avx2`.
    case maxpool2x2s2_1px_avx512
}
