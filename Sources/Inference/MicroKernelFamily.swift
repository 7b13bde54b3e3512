/// A family of micro-kernels: the interchangeable kernels of one
/// operation and arithmetic, listed once (the conforming enum's cases, in
/// the planner's order of preference: fastest first, the portable kernel
/// last), each with one row of facts (`MicroKernelEntry`: tile, what the
/// CPU needs, which steps it takes, how it runs). Everything else reads that
/// list: the planner's choice (`best(for:features:)`), the interpreter's
/// dispatch (`entry.run`), the kernel tests (`@Test(arguments: Family.all)`)
/// and the kernel table in docs/KERNELS.md. Adding a kernel is one case,
/// one row and its code.
///
/// Every kernel of a family gives the same bits as the family's scalar
/// reference (its tester checks each one), so which of them runs may
/// follow the CPU. A faster kernel that changes numbers is a family of its
/// own (`Int8ConvolutionKernel`, `Int8PointwiseKernel`), planned only when
/// the pipeline asks for that arithmetic (`FirstConvolution`,
/// `PointwiseConvolution`), never because of the CPU.
package protocol MicroKernelFamily: RawRepresentable<String>, CaseIterable, Sendable, CustomStringConvertible
where AllCases == [Self] {
    /// What the planner knows of a step when it chooses: `MicroKernelShape`,
    /// or `Void` for families whose kernels all take every step.
    associatedtype Shape
    /// The family as the docs name it, e.g. `fp32 depthwise convolution`.
    static var family: String { get }
    /// Pixels × channels (or rows) per inner step, e.g. `6 px × 16 ch`.
    var tile: String { get }
    /// What the CPU needs to run the kernel beyond the build's target
    /// (x86-64-v3 unless built generic, which the command checks at start).
    var requiredFeatures: CPUFeatures { get }
    /// The steps it takes, in words, e.g. `1×1, more than 8 output channels`.
    var takesSteps: String { get }
    /// Whether the planner may give the kernel a step of this shape.
    func takes(_ shape: Shape) -> Bool
}

extension MicroKernelFamily {
    /// The family's list, in the planner's order of preference.
    package static var all: [Self] { allCases }

    /// The kernel's name: operation, tile and instruction set.
    package var description: String { rawValue }

    /// The smallest kernel set that holds the kernel: `.avx512` when it
    /// needs any AVX-512 feature.
    package var kernelSet: KernelSet { requiredFeatures.isDisjoint(with: .anyAVX512) ? .avx2 : .avx512 }

    /// Whether this process can run the kernel: its set is available
    /// (`InferenceWide` compiled for AVX-512 where it needs that) and the
    /// CPU has what it needs.
    package var isRunnable: Bool { kernelSet.isAvailable && CPUFeatures.current.isSuperset(of: requiredFeatures) }

    /// The first kernel of the list that `features` run and that takes `shape`.
    /// Every family's last kernel needs nothing and takes every step.
    package static func best(for shape: Shape, features: CPUFeatures) -> Self {
        guard let kernel = all.first(where: { features.isSuperset(of: $0.requiredFeatures) && $0.takes(shape) }) else {
            preconditionFailure("\(family): no kernel for this step; the list must end in one that takes every step")
        }
        return kernel
    }
}

extension MicroKernelFamily where Shape == Void {
    /// The first kernel of the list that `features` run.
    package static func best(features: CPUFeatures) -> Self { best(for: (), features: features) }
}

/// One kernel's row in its family's list (`MicroKernelFamily`).
struct MicroKernelEntry<Shape, Run> {
    /// Pixels × channels (or rows) per inner step.
    var tile: String
    /// What the CPU needs beyond the build's target.
    var requiredFeatures: CPUFeatures = []
    /// Which steps the planner may give it, in words (for docs/KERNELS.md)…
    var when: String
    /// … and as the planner asks.
    var takes: (Shape) -> Bool
    /// How the interpreter runs it.
    var run: Run
}
