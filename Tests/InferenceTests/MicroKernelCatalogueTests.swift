import Foundation
import Inference
import Testing
import _TestSupport

/// The families' lists themselves: what the kernel sets may plan from them
/// on a given CPU, and the table in docs/KERNELS.md, which is generated
/// from them.
@Suite struct MicroKernelCatalogueTests {
    /// CPUs the choice is asked about: nothing (a generic build), the build
    /// target, AVX-512 F/BW/DQ/VL (Skylake-SP), and that with VNNI (Zen 4).
    static let cpus: [(String, CPUFeatures)] = [
        ("generic", []), ("x86-64-v3", .x86_64_v3), ("skylake-avx512", CPUFeatures.x86_64_v3.union(.skylakeAVX512)),
        ("zen4", CPUFeatures.x86_64_v3.union(.skylakeAVX512).union(.avx512vnni)),
    ]
    /// Windowed steps: every window and stride from 1 to 5, pointwise or not,
    /// with and without a fused ADD, at channel counts around each tile.
    static let shapes: [MicroKernelShape] = (1...5).flatMap { window in
        (1...3).flatMap { stride in
            [1, 2, 6, 8, 9, 16, 17, 20, 24, 25, 28, 32, 40, 88, 96].flatMap { outChannels in
                [false, true].map { fusedAdd in
                    MicroKernelShape(kernelHeight: window, kernelWidth: window, strideHeight: stride, strideWidth: stride,
                                     outChannels: outChannels, isPointwise: window == 1 && stride == 1, fusedAdd: fusedAdd)
                }
            }
        }
    }

    /// A set plans only kernels the CPU runs and the set holds (`.avx2`
    /// never an AVX-512 one), and every family ends in a kernel that needs
    /// nothing and takes every step, so every step gets one.
    @Test(arguments: cpus)
    func setsPlanOnlyKernelsTheyHoldAndTheCPURuns(_ cpu: (String, CPUFeatures)) {
        for set in KernelSet.allCases {
            let features = set.features(on: cpu.1)
            func check<F: MicroKernelFamily>(_ kernel: F, _ step: String) {
                #expect(cpu.1.isSuperset(of: kernel.requiredFeatures), "\(cpu.0), \(set) set: \(kernel) for \(step) needs \(kernel.requiredFeatures)")
                #expect(set == .avx512 || kernel.kernelSet == .avx2, "\(cpu.0), \(set) set: \(kernel) for \(step)")
            }
            for shape in Self.shapes {
                check(ConvolutionKernel.best(for: shape, features: features), "\(shape)")
                check(DepthwiseKernel.best(for: shape, features: features), "\(shape)")
                check(PoolKernel.best(for: shape, features: features), "\(shape)")
            }
            check(Int8ConvolutionKernel.best(features: features), "an int8 first convolution")
            check(Int8PointwiseKernel.best(features: features), "an int8 block projection")
        }
    }

    /// The AVX-512 set plans a 16-lane kernel wherever the list has one for the step.
    @Test func theAVX512SetPlansTheWideKernels() {
        let skylake = KernelSet.avx512.features(on: CPUFeatures.x86_64_v3.union(.skylakeAVX512))
        func shape(_ window: Int, _ stride: Int, _ outChannels: Int, fusedAdd: Bool = false) -> MicroKernelShape {
            MicroKernelShape(kernelHeight: window, kernelWidth: window, strideHeight: stride, strideWidth: stride, outChannels: outChannels,
                             isPointwise: window == 1 && stride == 1, fusedAdd: fusedAdd)
        }
        #expect(ConvolutionKernel.best(for: shape(1, 1, 24, fusedAdd: true), features: skylake) == .conv1x1_8x32_avx512)
        #expect(ConvolutionKernel.best(for: shape(1, 1, 6), features: skylake) == .conv1x1_6x16_avx2)
        #expect(ConvolutionKernel.best(for: shape(5, 2, 24), features: skylake) == .conv_8x24_avx512_interior_avx2_border)
        #expect(ConvolutionKernel.best(for: shape(5, 2, 24, fusedAdd: true), features: skylake) == .conv_4x24_avx2)
        #expect(DepthwiseKernel.best(for: shape(3, 1, 0), features: skylake) == .dwconv3x3s1_4rows_avx512)
        #expect(DepthwiseKernel.best(for: shape(3, 2, 0), features: skylake) == .dwconv3x3s2_8px_avx512)
        #expect(DepthwiseKernel.best(for: shape(3, 2, 0, fusedAdd: true), features: skylake) == .dwconv3x3s2_4px_avx2)
        #expect(PoolKernel.best(for: shape(2, 2, 0), features: skylake) == .maxpool2x2s2_1px_avx512)
        #expect(PoolKernel.best(for: shape(3, 2, 0), features: skylake) == .maxpool_1px_avx2)
    }

    /// docs/KERNELS.md's table is `MicroKernelCatalogue.markdown`;
    /// `FACEPIPE_RECORD_DOCS=1` rewrites it (and fails, so a recording is never a pass).
    @Test func docsListEveryKernelOfEveryFamily() throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("docs/KERNELS.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- kernel-table: generated from MicroKernelCatalogue.markdown; FACEPIPE_RECORD_DOCS=1 swift test --filter MicroKernelCatalogueTests rewrites it -->\n"
        let end = "<!-- kernel-table end -->"
        let start = try #require(text.range(of: begin), "docs/KERNELS.md has no line \(begin)")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex), "docs/KERNELS.md has no line \(end)")
        let generated = MicroKernelCatalogue.markdown
        if ProcessInfo.processInfo.environment["FACEPIPE_RECORD_DOCS"] == "1" {
            try (text[..<start.upperBound] + generated + text[stop.lowerBound...]).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded docs/KERNELS.md's kernel table; run again without FACEPIPE_RECORD_DOCS")
            return
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == generated,
                "docs/KERNELS.md's kernel table differs from the families' lists: FACEPIPE_RECORD_DOCS=1 swift test --filter MicroKernelCatalogueTests")
        for family in MicroKernelCatalogue.families {
            for name in Self.names(family) { #expect(text.contains("`\(name)`"), "docs/KERNELS.md does not list \(name)") }
        }
    }

    private static func names<F: MicroKernelFamily>(_ family: F.Type) -> [String] { F.all.map(\.rawValue) }
}
