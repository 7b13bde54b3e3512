import InferenceWide

/// The fp32 CONV_2D family, named operation_tile_instruction set:
/// `conv1x1` for 1×1 stride-1 convolutions (GEMMs over pixels), `conv` for
/// any window, stride and padding; the tile is pixels × output channels.
/// The cases are the family's list (`MicroKernelFamily`), fastest first;
/// `entry` gives each one's row. The planner packs the weights the chosen
/// kernel reads (`pack`); the interpreter runs `entry.run`
/// (`Kernels.convolution`).
///
/// All kernels of the family sum every output in the same order, so they
/// give the same bits (`ConvKernelTests`).
package enum ConvolutionKernel: String, MicroKernelFamily {
    /// 1×1: tiles of 8 pixels × 32 channels on 16 lanes (`Conv1x1AVX512`).
    /// Weights `[ceil(O/16)][I][16]`.
    case conv1x1_8x32_avx512
    /// 1×1: tiles of 6 pixels × 16 channels on 8 lanes, then 4 × 16 and 1 × 8
    /// (`Kernels.conv1x1AVX2`). Weights `[ceil(O/8)][I][8]`.
    case conv1x1_6x16_avx2
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
    /// 17–24 output channels: interior pixels 4 × 24 channels (twelve
    /// accumulators share each broadcast), borders as `conv_4x16_avx2`.
    /// Weights in the 8-lane layout.
    case conv_4x24_avx2
    /// Any window: interior pixels 4 × 16 channels (an odd last 8-channel
    /// block 4 × 8), border pixels 1 × 8, on 8 lanes. Weights
    /// `[ceil(O/8)][KH][KW][I][8]` (the "8-lane layout").
    case conv_4x16_avx2

    package static let family = "fp32 convolution (CONV_2D)"

    /// How the interpreter runs a kernel of the family.
    typealias Run = (Step.Convolution, UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void

    /// The kernel's row of the list. At most 8 output channels (a
    /// detector's score heads: 2 or 6) take the 8-lane 1×1 tiles even in the
    /// AVX-512 set: a 32-channel tile would compute mostly padding. The
    /// AVX-512 interiors apply the bias and the first activation
    /// themselves, so they take no fused ADD.
    var entry: MicroKernelEntry<MicroKernelShape, Run> {
        switch self {
        case .conv1x1_8x32_avx512:
            .init(tile: "8 px × 32 ch", requiredFeatures: .skylakeAVX512, when: "1×1, more than 8 output channels",
                  takes: { $0.isPointwise && $0.outChannels > 8 },
                  run: Kernels.conv1x1AVX512)
        case .conv1x1_6x16_avx2:
            .init(tile: "6 px × 16 ch", when: "1×1",
                  takes: { $0.isPointwise },
                  run: Kernels.conv1x1AVX2)
        case .conv_8x24_avx512_interior_avx2_border:
            .init(tile: "8 px × 24 ch", requiredFeatures: .skylakeAVX512, when: "any other window, 24 output channels, no fused ADD",
                  takes: { !$0.isPointwise && !$0.fusedAdd && $0.outChannels == ConvInterior24AVX512.outputChannels },
                  run: Kernels.conv8x24AVX512)
        case .conv_8x16_avx512_interior_avx2_border:
            .init(tile: "8 px × 16 ch", requiredFeatures: .skylakeAVX512, when: "any other window, 16 output channels, no fused ADD",
                  takes: { !$0.isPointwise && !$0.fusedAdd && $0.outChannels == 16 },
                  run: Kernels.conv8x16or32AVX512)
        case .conv_8x32_avx512_interior_avx2_border:
            .init(tile: "8 px × 32 ch", requiredFeatures: .skylakeAVX512, when: "any other window, 32 output channels, no fused ADD",
                  takes: { !$0.isPointwise && !$0.fusedAdd && $0.outChannels == 32 },
                  run: Kernels.conv8x16or32AVX512)
        case .conv_4x24_avx2:
            .init(tile: "4 px × 24 ch", when: "any other window, 17–24 output channels",
                  takes: { !$0.isPointwise && ($0.outChannels + 7) / 8 == 3 },
                  run: { Kernels.convRows($0, arena: $1, constants: $2, interior: ConvInterior4x24AVX2()) })
        case .conv_4x16_avx2:
            .init(tile: "4 px × 16 ch", when: "any other window",
                  takes: { !$0.isPointwise },
                  run: { Kernels.convRows($0, arena: $1, constants: $2, interior: ConvInterior4x16AVX2()) })
        }
    }

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: MicroKernelShape) -> Bool { entry.takes(shape) }

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

