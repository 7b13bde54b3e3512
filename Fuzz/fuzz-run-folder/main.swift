import CLibFuzzerDriver
import Foundation
import Glibc
import Pipeline
import RunFolders

/// Reads the bytes as each file `facepipe merge` takes from a shard folder
/// that may come from anyone: `_SUCCESS` (decoded and checked for the shard
/// it names, shard 0 of 1 and shard 2 of 3, then split into its assignment
/// as the merge does), `run.json` (the record, the summaries combined) and
/// `manifest.csv` (header, rows, the files they name). Refusals are fine;
/// a trap or a bad access is the finding.
func fuzzRunFolder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let named = (try? JSONDecoder().decode(ShardCompletion.self, from: Data(bytes))).flatMap { try? Shard(index: $0.shard, count: $0.shardCount) }
    for shard in [named, try? Shard(index: 0, count: 1), try? Shard(index: 2, count: 3)].compactMap({ $0 }) {
        if let completion = try? ShardCompletion(decoding: bytes, path: "_SUCCESS", shard: shard) {
            let assignment = ShardAssignment(paths: completion.inputs, sizes: completion.inputSizes, count: shard.count)
            _ = completion.assigned == Array(assignment.blocks[completion.shard])
        }
    }
    if let run = try? ShardedRunFolder.runJSON(decoding: bytes, path: "run.json") {
        _ = ShardMerge.combinedSummary([run.summary, run.summary])
    }
    _ = try? ShardedRunFolder.manifest(decoding: bytes, path: "manifest.csv")
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRunFolder))
