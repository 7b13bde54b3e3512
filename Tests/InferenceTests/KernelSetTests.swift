import Foundation
import Inference
import Testing
import _TestSupport

/// The two kernel sets on every model: the AVX-512 plan gives the 8-lane
/// plan's bytes (every kernel family sums in one order), and the set is
/// chosen from the CPU probe.
@Suite struct KernelSetTests {
    static let models = ["face_detection_short_range.tflite", "face_detection_full_range.tflite",
                         "face_landmark.tflite", "iris_landmark.tflite", "face_detection_back.tflite",
                         "face_detection_full_range_sparse.tflite"]

    @Test(.avx512, arguments: models)
    func setsGiveTheSameBits(_ file: String) throws {
        let avx2 = try Model(contentsOf: Fixtures.model(file), kernels: .avx2)
        let avx512 = try Model(contentsOf: Fixtures.model(file), kernels: .avx512)
        #expect(avx2.kernels == .avx2 && avx512.kernels == .avx512)
        var generator = SplitMix64(seed: 16)
        let input = (0..<avx2.inputs[0].elementCount).map { _ in generator.unitFloat() * 2 - 1 }
        let expected = try Interpreter(model: avx2).run([input])
        let got = try Interpreter(model: avx512).run([input])
        #expect(try Interpreter(model: avx512).run([input]) == got, "the AVX-512 plan is not deterministic")
        for (index, (a, b)) in zip(expected, got).enumerated() {
            #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "output \(index) differs between the kernel sets")
        }
    }

    /// BlazeFace's skip connections pad 24 → 28 channels (and so on) before
    /// the ADD; with `conv1x1_8x32_avx512` the 1×1 convolution's epilogue
    /// reads the unpadded tensor instead (`setsGiveTheSameBits` checks the values).
    @Test(.avx512)
    func avx512PlanFoldsChannelPads() throws {
        let avx2 = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"), kernels: .avx2)
        let avx512 = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"), kernels: .avx512)
        let pads = { (model: Model) in model.stepSummaries.filter { $0.kind == "PAD" }.count }
        #expect(pads(avx2) == 11)
        #expect(pads(avx512) == 0)
    }

    @Test func unavailableSetFallsBackToAVX2() throws {
        let model = try Model(contentsOf: Fixtures.model("iris_landmark.tflite"), kernels: .avx512)
        #expect(model.kernels == (KernelSet.avx512.isAvailable ? .avx512 : .avx2))
        #expect(KernelSet.avx2.isAvailable)
    }

    @Test func bestSetFollowsTheProbe() {
        #expect(KernelSet.best(for: [.avx2, .fma, .f16c]) == .avx2)
        #expect(KernelSet.best(for: .current) == (KernelSet.avx512.isAvailable ? .avx512 : .avx2))
        #expect(CPUFeatures.current.isSuperset(of: .x86_64_v3), "the build target's features: \(CPUFeatures.current)")
    }
}
