import CLibFuzzerDriver
import Foundation
import Glibc
import Pipeline
import RunFolders

/// Reads the bytes as the payload of a stage cache file
/// and of a completion record (``CompactDecoder``: what follows the magic
/// and precedes the checksum, so mutations are not all stopped by the
/// checksum), runs the checks a read-back record passes before use, and
/// the sealed-file reader on the whole input. Then as a ``RecordPack``: a
/// little-endian length, that many bytes of index, the rest a segment; the
/// pack is opened (rebuilding a damaged index), looked up, written to and
/// reopened. Decoding errors, refused records and damaged lookups are fine;
/// a trap, a bad access or a record returned for another key is the finding.
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
    fuzzPack(bytes)
    return 0
}

let packFolder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-stage-cache-\(getpid())")

func fuzzPack(_ bytes: [UInt8]) {
    guard bytes.count >= 4 else { return }
    let split = min(bytes.count - 4, Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3] & 0x7F) << 24)
    try? FileManager.default.removeItem(at: packFolder)
    defer { try? FileManager.default.removeItem(at: packFolder) }
    guard (try? FileManager.default.createDirectory(at: packFolder, withIntermediateDirectories: true)) != nil,
          (try? Data(bytes[4..<4 + split]).write(to: packFolder.appendingPathComponent("index"))) != nil,
          (try? Data(bytes[(4 + split)...]).write(to: packFolder.appendingPathComponent("000001.seg"))) != nil,
          let pack = try? RecordPack(path: packFolder.path) else { return }
    let keys = ["0/0", "0/1", "0/2#3"] + (0..<4).map { "key \($0)" }
    for key in keys { _ = pack.read(key) }
    guard (try? pack.write([1, 2, 3], for: "0/1")) != nil else { return }
    guard pack.read("0/1") == .found([1, 2, 3]) else { fatalError("a record just written was not read back") }
    guard let reopened = try? RecordPack(path: packFolder.path) else { return }
    guard reopened.read("0/1") == .found([1, 2, 3]) else { fatalError("a record written was lost on reopening") }
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStageCache))
