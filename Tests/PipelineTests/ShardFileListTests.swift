import ArchiveIO
import Foundation
import RunFolders
import Testing

/// `ShardFileList.walk`, the merge's reading of a shard's manifest and file
/// list, on manifests planted by someone else: a clear refusal, never a trap.
@Suite struct ShardFileListTests {
    /// A shard folder (0 of 1) holding `manifest` and a file list that
    /// records only `images/in.tar/a.png.png`; the files the walk hands on,
    /// or the error it throws.
    static func walk(manifest: [UInt8]) throws -> (taken: [String], error: ShardError?) {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let shard = try Shard(index: 0, count: 1)
        let shardFolder = parent.appendingPathComponent(OutputLayout.shardFolder(shard))
        try FileManager.default.createDirectory(at: shardFolder, withIntermediateDirectories: true)
        let list = Array("row,path,bytes,sha256\r\n1,images/in.tar/a.png.png,3,\(String(repeating: "ab", count: 32))\r\n".utf8)
        try Data(manifest).write(to: shardFolder.appendingPathComponent(OutputLayout.manifestName))
        try Data(list).write(to: shardFolder.appendingPathComponent(OutputLayout.shardFileListName))
        let hash = RunningSHA256()
        hash.update(list)
        let digest = hash.finalize()
        var taken: [String] = []
        do {
            try ShardFileList.walk(shard, in: try ShardedRunFolder(parent),
                                   seal: .init(bytes: Int(digest.bytes), sha256: digest.sha256)) { taken.append($0.path) }
        } catch let error as ShardError {
            return (taken, error)
        }
        return (taken, nil)
    }

    /// The manifest's header and one row of entry `a.png` naming its
    /// picture and, as its crop, `crop` (raw bytes: they need not be UTF-8).
    static func manifest(crop: [UInt8]) -> [UInt8] {
        var fields = [String](repeating: "", count: Manifest.columns.count)
        func set(_ column: ManifestColumn, _ value: String) { fields[Manifest.columns.firstIndex(of: column.name)!] = value }
        set(.archive, "in.tar")
        set(.entry, "a.png")
        set(.index, "0")
        set(.status, "ok")
        set(.output, "images/in.tar/a.png.png")
        set(.crop, "CROP")
        let row = Array(Manifest.csvLine(fields).utf8)
        let marker = Array("CROP".utf8)
        let at = (0...(row.count - marker.count)).first { Array(row[$0..<($0 + marker.count)]) == marker }!
        return Array(Manifest.csvLine(Manifest.columns).utf8) + row[..<at] + crop + row[(at + marker.count)...]
    }

    /// A crop that is one invalid byte (read as U+FFFD) or one non-ASCII
    /// character made the merge trap in Foundation's path code (found by
    /// `fuzz-run-folder`); the walk takes the picture and refuses the crop
    /// the list does not record, naming it.
    @Test(arguments: [[0xFF], Array("é".utf8), Array("\u{FFFD}".utf8)])
    func aCropOfOneOddCharacterIsRefusedNamingIt(_ crop: [UInt8]) throws {
        let (taken, error) = try Self.walk(manifest: Self.manifest(crop: crop))
        #expect(taken == ["images/in.tar/a.png.png"])
        let name = String(decoding: crop, as: UTF8.self)
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("names \(name), which"), "\(String(describing: error))")
    }

    /// The same walk with an ordinary crop the list does not record: the
    /// same refusal, naming that crop, so the scene itself is sound.
    @Test func theSceneWithoutTheOddCropIsRefusedOnlyForTheMissingCrop() throws {
        let (taken, error) = try Self.walk(manifest: Self.manifest(crop: Array("crops/in.tar/a.png/0.png".utf8)))
        #expect(taken == ["images/in.tar/a.png.png"])
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("names crops/in.tar/a.png/0.png, which"))
    }
}
