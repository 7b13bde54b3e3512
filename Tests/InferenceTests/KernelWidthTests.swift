import Foundation
import Inference
import Testing
import _TestSupport

/// The 16-lane 1×1 kernels against the 8-lane ones on every model and on
/// random data: the same function up to float rounding, and each width
/// deterministic.
@Suite struct KernelWidthTests {
    static let models = ["face_detection_short_range.tflite", "face_detection_full_range.tflite",
                         "face_landmark.tflite", "iris_landmark.tflite", "face_detection_back.tflite",
                         "face_detection_full_range_sparse.tflite"]

    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"), arguments: models)
    func widthsAgree(_ file: String) throws {
        let narrow = try Model(contentsOf: Fixtures.model(file), kernels: .lanes8)
        let wide = try Model(contentsOf: Fixtures.model(file), kernels: .lanes16)
        #expect(narrow.kernels == .lanes8 && wide.kernels == .lanes16)
        var generator = SplitMix64(seed: 16)
        let input = (0..<narrow.inputs[0].elementCount).map { _ in generator.unitFloat() * 2 - 1 }
        let expected = try Interpreter(model: narrow).run([input])
        let got = try Interpreter(model: wide).run([input])
        #expect(try Interpreter(model: wide).run([input]) == got, "the 16-lane plan is not deterministic")
        for (index, (a, b)) in zip(expected, got).enumerated() {
            let scale = max(1, a.map(abs).max() ?? 0)
            let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 2e-5 * scale, "output \(index): widths differ by \(worst) (scale \(scale))")
        }
    }

    /// BlazeFace's skip connections pad 24 → 28 channels (and so on) before
    /// the ADD; the 16-lane plan reads the unpadded tensor in the 1×1
    /// convolution's epilogue instead (`widthsAgree` checks the values).
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"))
    func widePlanFoldsChannelPads() throws {
        let narrow = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"), kernels: .lanes8)
        let wide = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"), kernels: .lanes16)
        let pads = { (model: Model) in model.stepSummaries.filter { $0.kind == "PAD" }.count }
        #expect(pads(narrow) == 11)
        #expect(pads(wide) == 0)
    }

    @Test func forcedNarrowWidthWhenUnavailable() throws {
        let model = try Model(contentsOf: Fixtures.model("iris_landmark.tflite"), kernels: .lanes16)
        #expect(model.kernels == (KernelWidth.lanes16.isAvailable ? .lanes16 : .lanes8))
        #expect(KernelWidth.lanes8.isAvailable)
    }
}
