import CLibFuzzerDriver
import Foundation
import Glibc
import Pipeline
import RunFolders

/// Reads the bytes as each file `facepipe merge` takes from a shard folder
/// that may come from anyone: `_SUCCESS` (decoded and checked for the shard
/// it names, shard 0 of 1 and shard 2 of 3, then split into its assignment
/// as the merge does), `run.json` (the record, the summaries combined),
/// `manifest.csv` (header, rows, the files they name) and `_SUCCESS.files`
/// (``ShardFileList/walk(_:in:seal:take:)`` over a shard folder holding the
/// bytes, below). Refusals are fine; a trap or a bad access is the finding,
/// and so is a listed file the walk hands on that is not a plain path
/// below `images/`, `faces/` or `crops/` (the merge copies it).
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
    walkFileList(bytes)
    return 0
}

/// The run folder `_SUCCESS.files` is planted in (its shard 0 of 1), made
/// and removed for each input; in memory (/dev/shm) where there is one,
/// which runs about five times the inputs a second of a disk's /tmp.
let plantedFolder = URL(fileURLWithPath: access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory())
    .appendingPathComponent("fuzz-run-folder-\(getpid())")

/// The bytes, split at their first NUL, as a shard's `manifest.csv`
/// (before) and its `_SUCCESS.files` (after; with no NUL, all of them
/// beside a manifest of the header alone), planted in a shard folder and
/// walked as `facepipe merge` walks them, sealed by their own size and
/// SHA-256 (as an intact `_SUCCESS` seals them), so the walk goes to the end.
func walkFileList(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0)
    let manifest = split.map { Array(bytes[..<$0]) } ?? Array(Manifest.csvLine(Manifest.columns).utf8)
    let list = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
    guard let shard = try? Shard(index: 0, count: 1) else { return }
    let shardFolder = plantedFolder.appendingPathComponent(OutputLayout.shardFolder(shard))
    try? FileManager.default.removeItem(at: plantedFolder)
    defer { try? FileManager.default.removeItem(at: plantedFolder) }
    guard (try? FileManager.default.createDirectory(at: shardFolder, withIntermediateDirectories: true)) != nil,
          (try? Data(manifest).write(to: shardFolder.appendingPathComponent(OutputLayout.manifestName))) != nil,
          (try? Data(list).write(to: shardFolder.appendingPathComponent(OutputLayout.shardFileListName))) != nil,
          let folder = try? ShardedRunFolder(plantedFolder) else { return }
    let hash = RunningSHA256()
    hash.update(list)
    let digest = hash.finalize()
    try? ShardFileList.walk(shard, in: folder, seal: .init(bytes: Int(digest.bytes), sha256: digest.sha256)) { line in
        guard ShardFileList.isOutputPath(line.path) else {
            fatalError("the walk handed on \(line.path), which is not a plain path below images/, faces/ or crops/")
        }
    }
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRunFolder))
