import InferenceWide

/// The fp32 DEPTHWISE_CONV_2D family (depth multiplier 1), named like
/// `ConvolutionKernel`'s; the tile is output pixels (or rows) per inner
/// step. The cases are the family's list (`MicroKernelFamily`), fastest
/// first; `entry` gives each one's row. Every kernel sums an output's taps
/// in the same order (kernel row, then column), so all give the same bits
/// (`DepthwiseKernelTests`).
package enum DepthwiseKernel: String, MicroKernelFamily {
    /// 3×3 stride 1, no fused ADD: each output row swept as one flat run of
    /// floats on 16 lanes, four rows at a time (then two, one); border pixels
    /// from a copy of their window (`Depthwise3x3s1AVX512`). Weights, bias and
    /// PReLU slopes packed in `Depthwise3x3s1AVX512.pack`'s table.
    case dwconv3x3s1_4rows_avx512
    /// 3×3 stride 1: interiors 8 pixels × all channels (channel-inner, each
    /// input vector loaded once for the pixels it touches), borders one pixel
    /// × 8 channels, on 8 lanes. Weights `[KH][KW][roundUp8(C)]` (the "8-lane
    /// layout").
    case dwconv3x3s1_8px_avx2
    /// 3×3 stride 2, no fused ADD: interiors 8 pixels × 16 channels at a
    /// time (`Depthwise3x3s2AVX512`), borders as `dwconv3x3s2_4px_avx2`.
    /// The 8-lane layout, then the bias and the PReLU slopes in the same
    /// layout and 16 floats of zeros (the 16-lane loads' slack).
    case dwconv3x3s2_8px_avx512
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

    package static let family = "fp32 depthwise convolution (DEPTHWISE_CONV_2D)"

    /// How the interpreter runs a kernel of the family.
    typealias Run = (Step.Depthwise, UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void

    /// The kernel's row of the list. The 8-lane 3×3 kernels go by the
    /// column stride (any row stride). The AVX-512 interiors apply the bias
    /// and the first activation themselves, so they take no fused ADD.
    var entry: MicroKernelEntry<MicroKernelShape, Run> {
        switch self {
        case .dwconv3x3s1_4rows_avx512:
            .init(tile: "4 rows × C", requiredFeatures: .skylakeAVX512, when: "3×3, stride 1, no fused ADD",
                  takes: { $0.isWindow(3, 3, stride: 1, 1) && !$0.fusedAdd },
                  run: Kernels.depthwise3x3s1AVX512)
        case .dwconv3x3s1_8px_avx2:
            .init(tile: "8 px × C", when: "3×3, column stride 1",
                  takes: { $0.isWindow(3, 3, stride: nil, 1) },
                  run: { Kernels.depthwiseRows($0, arena: $1, constants: $2, interior: DepthwiseInterior3x3s1AVX2()) })
        case .dwconv3x3s2_8px_avx512:
            .init(tile: "8 px × 16 ch", requiredFeatures: .skylakeAVX512, when: "3×3, column stride 2, no fused ADD",
                  takes: { $0.isWindow(3, 3, stride: nil, 2) && !$0.fusedAdd },
                  run: Kernels.depthwise3x3s2AVX512)
        case .dwconv3x3s2_4px_avx2:
            .init(tile: "4 px × C", when: "3×3, column stride 2",
                  takes: { $0.isWindow(3, 3, stride: nil, 2) },
                  run: { Kernels.depthwiseRows($0, arena: $1, constants: $2, interior: DepthwiseInterior3x3s2AVX2()) })
        case .dwconv3x3_4px_avx2:
            .init(tile: "4 px × 8 ch", when: "3×3, any stride",
                  takes: { $0.isWindow(3, 3) },
                  run: { Kernels.depthwiseRows($0, arena: $1, constants: $2, interior: DepthwiseInterior3x3AVX2()) })
        case .dwconv5x5_4px_avx2:
            .init(tile: "4 px × 8 ch", when: "5×5, any stride",
                  takes: { $0.isWindow(5, 5) },
                  run: { Kernels.depthwiseRows($0, arena: $1, constants: $2, interior: DepthwiseInterior5x5AVX2()) })
        case .dwconv_1px_avx2:
            .init(tile: "1 px × 8 ch", when: "any window",
                  takes: { _ in true },
                  run: { Kernels.depthwiseRows($0, arena: $1, constants: $2, interior: DepthwiseInterior1pxAVX2()) })
        }
    }

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: MicroKernelShape) -> Bool { entry.takes(shape) }

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
