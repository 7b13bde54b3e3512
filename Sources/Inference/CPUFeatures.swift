import CCPUFeatures

/// The instruction-set extensions of the running CPU, from the project's one
/// probe (`facepipe_cpu_features` in CCPUFeatures, which the C loops ask too).
/// Probed once per process.
public struct CPUFeatures: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let sse4_1 = CPUFeatures(bit: FACEPIPE_CPU_SSE4_1)
    public static let pclmul = CPUFeatures(bit: FACEPIPE_CPU_PCLMUL)
    public static let avx2 = CPUFeatures(bit: FACEPIPE_CPU_AVX2)
    public static let fma = CPUFeatures(bit: FACEPIPE_CPU_FMA)
    public static let f16c = CPUFeatures(bit: FACEPIPE_CPU_F16C)
    public static let bmi2 = CPUFeatures(bit: FACEPIPE_CPU_BMI2)
    public static let avx512f = CPUFeatures(bit: FACEPIPE_CPU_AVX512F)
    public static let avx512bw = CPUFeatures(bit: FACEPIPE_CPU_AVX512BW)
    public static let avx512cd = CPUFeatures(bit: FACEPIPE_CPU_AVX512CD)
    public static let avx512dq = CPUFeatures(bit: FACEPIPE_CPU_AVX512DQ)
    public static let avx512vl = CPUFeatures(bit: FACEPIPE_CPU_AVX512VL)
    public static let avx512vbmi = CPUFeatures(bit: FACEPIPE_CPU_AVX512VBMI)
    public static let avx512vnni = CPUFeatures(bit: FACEPIPE_CPU_AVX512VNNI)

    /// What the build's SIMD targets are compiled for (x86-64-v3: AVX2, FMA, F16C).
    public static let x86_64_v3: CPUFeatures = [.avx2, .fma, .f16c]
    /// What code compiled for skylake-avx512 (`InferenceWide`) uses: AVX-512 F, BW, DQ and VL.
    public static let skylakeAVX512: CPUFeatures = [.avx512f, .avx512bw, .avx512dq, .avx512vl]
    /// Every AVX-512 extension the probe reports: what the `.avx2` kernel set leaves out (`KernelSet.features(on:)`).
    public static let anyAVX512: CPUFeatures = [.avx512f, .avx512bw, .avx512cd, .avx512dq, .avx512vl, .avx512vbmi, .avx512vnni]

    /// The running CPU's features.
    public static let current = CPUFeatures(rawValue: facepipe_cpu_features())

    private init<T: BinaryInteger>(bit: T) { rawValue = UInt32(truncatingIfNeeded: bit) }

    private static let names: [(CPUFeatures, String)] = [
        (.sse4_1, "sse4.1"), (.pclmul, "pclmul"), (.avx2, "avx2"), (.fma, "fma"), (.f16c, "f16c"), (.bmi2, "bmi2"),
        (.avx512f, "avx512f"), (.avx512bw, "avx512bw"), (.avx512cd, "avx512cd"), (.avx512dq, "avx512dq"),
        (.avx512vl, "avx512vl"), (.avx512vbmi, "avx512vbmi"), (.avx512vnni, "avx512vnni"),
    ]

    /// The features' names, e.g. `avx2 fma f16c`.
    public var description: String { Self.names.filter { contains($0.0) }.map(\.1).joined(separator: " ") }
}
