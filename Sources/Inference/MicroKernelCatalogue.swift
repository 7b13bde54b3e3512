/// Every micro-kernel family (`MicroKernelFamily`), and their lists as
/// docs/KERNELS.md shows them: the table there is this text
/// (`MicroKernelCatalogueTests` fails when they differ and rewrites it with
/// `FACEPIPE_RECORD_DOCS=1`).
package enum MicroKernelCatalogue {
    /// The families, fp32 first.
    package static let families: [any MicroKernelFamily.Type] = [
        ConvolutionKernel.self, DepthwiseKernel.self, PoolKernel.self, Int8ConvolutionKernel.self, Int8PointwiseKernel.self,
        QS8PointwiseKernel.self, QS8DepthwiseKernel.self,
    ]

    /// One Markdown table per family, its kernels in the planner's order of preference.
    package static var markdown: String {
        families.map { table($0) }.joined(separator: "\n")
    }

    private static func table<F: MicroKernelFamily>(_ family: F.Type) -> String {
        var lines = ["#### \(F.family)", "", "| kernel | tile | takes | set | needs beyond the build's target |",
                     "|---|---|---|---|---|"]
        for kernel in F.all {
            let needs = kernel.requiredFeatures.isEmpty ? "–" : kernel.requiredFeatures.description
            lines.append("| `\(kernel)` | \(kernel.tile) | \(kernel.takesSteps) | `\(kernel.kernelSet)` | \(needs) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
