import ArgumentParser
import Foundation
import Pipeline
import RunFolders

/// `facepipe merge OUT`: one output folder from the shards of a run split over cluster tasks.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shards of a run split over cluster tasks (OUT/shards/I-of-N/) into OUT's single-run layout.",
        discussion: """
        Checks that every shard 0…N-1 finished (its _SUCCESS record) and that all ran the \
        same pipeline, options, models and input list, naming the odd shard otherwise; \
        missing shards are listed with the command that reruns each. Then hard-links (or \
        copies, across file systems) the images, JSON and crops each shard's manifest names \
        into OUT/images, OUT/faces and OUT/crops, each checked against the size and SHA-256 \
        its _SUCCESS records, and writes one manifest.csv and one run.json (every shard's \
        provenance). No link below OUT is followed, for a read or a write. \
        The manifest, images and JSON are byte-identical to what one `facepipe run` over \
        the same inputs in sorted order writes. The shards are left as they are.

        Exit codes: 0 merged; 2 shards missing, mismatched or unreadable (nothing written).
        """
    )

    @Argument(help: ArgumentHelp("The --out folder the shards ran into.", valueName: "OUT"))
    var out: String

    func run() throws {
        do {
            let summary = try ShardMerge.merge(into: URL(fileURLWithPath: out))
            // The pipeline name and any name in an error come from the shards: shown escaped.
            print(TerminalText.escaped("facepipe: merged \(summary.shards) shards of \(summary.pipeline): \(summary.rows) manifest rows, \(summary.files) files in \(out)"))
        } catch {
            throw UsageFailure(message: TerminalText.escaped(error.description))
        }
    }
}
