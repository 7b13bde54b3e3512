import CLibFuzzerDriver
import Glibc
import Pipeline

/// Reads the bytes as the payload of a stage cache file
/// and of a completion record (``CompactDecoder``: what follows the magic
/// and precedes the checksum, so mutations are not all stopped by the
/// checksum), runs the checks a read-back record passes before use, and
/// the sealed-file reader on the whole input. Decoding errors and refused
/// records are fine; a trap or a bad access is the finding.
func fuzzStageCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let result = try? CompactDecoder.decode(CachedStageResult.self, from: bytes),
       result.record.damage == nil {
        // What the writer computes from a record that passed.
        let record = result.record
        _ = Double(record.width) * Double(record.height) / 1e6
        _ = record.faces.filter(\.isKept).count
        for face in record.faces { for group in face.pointGroups { _ = group.points.count } }
    }
    if let record = try? CompactDecoder.decode(CompletionRecord.self, from: bytes) { _ = record.damage }
    _ = try? SealedRecord.open(CachedStageResult.self, kind: .stageResult, from: bytes)
    _ = try? SealedRecord.open(CompletionRecord.self, kind: .completion, from: bytes)
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStageCache))
