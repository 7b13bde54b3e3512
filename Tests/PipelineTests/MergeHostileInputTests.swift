import ArchiveIO
import Crypto
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing

/// `facepipe merge OUT` on a folder from a stranger (issue 35): links below
/// OUT are never followed for a read or a write, forged `_SUCCESS` records
/// are refused naming the shard and the field, only the files a shard's
/// manifest names are merged and each must be the file the shard recorded.
@Suite struct MergeHostileInputTests {
    /// `parent/out` with the finished shards of a run over four archives,
    /// and `parent/elsewhere` (holding `keep.txt`), what planted links point at.
    struct Scene {
        let parent: URL
        var out: URL { parent.appendingPathComponent("out") }
        var elsewhere: URL { parent.appendingPathComponent("elsewhere") }

        init(shards count: Int) async throws {
            parent = try temporaryFolder()
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: elsewhere.appendingPathComponent("keep.txt"))
            let inputs = try ShardMergeTests.archives(in: parent)
            let plan = try redSquarePipeline().compile(modelsDirectory: parent)
            for index in 0..<count {
                _ = try await ShardedRun.run(plan, arguments: inputs, shard: try Shard(index: index, count: count), out: out,
                                             configuration: ShardMergeTests.configuration(out), toolVersion: "test")
            }
        }

        func shard(_ name: String) -> URL { out.appendingPathComponent("shards/\(name)") }

        /// Rewrites shard `name`'s `_SUCCESS` through `change`.
        func editRecord(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
            let url = shard(name).appendingPathComponent("_SUCCESS")
            var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            change(&record)
            try JSONSerialization.data(withJSONObject: record).write(to: url)
        }

        /// Rewrites shard `name`'s file list (`_SUCCESS.files`: its lines, the
        /// header first) through `change`; with `reseal`, records the new
        /// list's size and SHA-256 in `_SUCCESS` too (a forger who knows the format).
        func editFileList(_ name: String, reseal: Bool, _ change: (inout [String]) -> Void) throws {
            let url = shard(name).appendingPathComponent("_SUCCESS.files")
            var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n")
            #expect(lines.removeLast() == "", "the list ends in a line end")
            change(&lines)
            let data = Data(lines.map { $0 + "\r\n" }.joined().utf8)
            try data.write(to: url)
            if reseal {
                try editRecord(name) { record in
                    record["outputList"] = ["bytes": data.count, "sha256": SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()]
                }
            }
        }

        /// Moves `relative` (below OUT) to `elsewhere/moved` and leaves a link to it in its place.
        func replaceWithLink(_ relative: String) throws {
            let original = out.appendingPathComponent(relative)
            let moved = elsewhere.appendingPathComponent("moved")
            try FileManager.default.moveItem(at: original, to: moved)
            try FileManager.default.createSymbolicLink(at: original, withDestinationURL: moved)
        }

        /// Nothing of a merge was written: no manifest, run.json or outputs in OUT.
        func expectNothingMerged(_ comment: Comment? = nil) {
            for name in ["manifest.csv", "run.json", "report.html"] {
                #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), comment)
            }
        }

        func remove() { try? FileManager.default.removeItem(at: parent) }
    }

    // MARK: - Row 2: forged records

    /// A forged field of shard 1-of-2's `_SUCCESS` and the field the error must name.
    struct Forgery: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let field: String
        let change: @Sendable (inout [String: Any]) -> Void

        static let all: [Forgery] = [
            Forgery(testDescription: "shard 99", field: "shard") { $0["shard"] = 99 },
            Forgery(testDescription: "shard -1", field: "shard") { $0["shard"] = -1 },
            Forgery(testDescription: "shardCount 7", field: "shardCount") { $0["shardCount"] = 7 },
            Forgery(testDescription: "sizes Int64.max", field: "inputSizes") {
                $0["inputSizes"] = ($0["inputSizes"] as? [Any] ?? []).map { _ in Int64.max }
            },
            Forgery(testDescription: "a negative size", field: "inputSizes") {
                $0["inputSizes"] = ($0["inputSizes"] as? [Any] ?? []).map { _ in -5 }
            },
            Forgery(testDescription: "one size fewer than inputs", field: "inputSizes") {
                $0["inputSizes"] = Array(($0["inputSizes"] as? [Any] ?? []).dropLast())
            },
            Forgery(testDescription: "an assigned input out of the list", field: "assigned") { $0["assigned"] = [1_000_000] },
            // A record of facepipe before the file list (its files listed in _SUCCESS itself): rerun the shard.
            Forgery(testDescription: "no file list (an earlier facepipe's record)", field: "outputList") {
                $0["outputList"] = nil
                $0["outputs"] = [["path": "images/part-2.tar/0.ppm", "bytes": 1, "sha256": String(repeating: "0", count: 64)]]
            },
            Forgery(testDescription: "no skipped list", field: "skippedList") { $0["skippedList"] = nil },
            Forgery(testDescription: "a file list without a SHA-256", field: "outputList") {
                $0["outputList"] = ["bytes": 10, "sha256": "not hex"]
            },
        ]
    }

    @Test(arguments: Forgery.all)
    func aForgedRecordIsRefusedNamingTheShardAndTheField(_ forgery: Forgery) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        try scene.editRecord("1-of-2", forgery.change)
        #expect {
            try ShardMerge.merge(into: scene.out)
        } throws: { error in
            guard case .badRecord(let path, let field, _) = error as? ShardError else { return false }
            return path.hasSuffix("shards/1-of-2/_SUCCESS") && field == forgery.field
        }
        scene.expectNothingMerged()
    }

    /// A shard's run.json (not covered by `_SUCCESS`) whose counters would
    /// overflow when the shards' summaries are added: refused, naming the field.
    @Test(arguments: [("entries", "9223372036854775807"), ("faces", "-1"), ("megapixels", "1e300")])
    func aForgedRunJSONIsRefusedNamingTheField(field: String, value: String) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        for name in ["0-of-2", "1-of-2"] {
            let url = scene.shard(name).appendingPathComponent("run.json")
            var run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            var summary = try #require(run["summary"] as? [String: Any])
            summary[field] = "FORGED"
            run["summary"] = summary
            let text = String(decoding: try JSONSerialization.data(withJSONObject: run), as: UTF8.self)
            try Data(text.replacingOccurrences(of: "\"FORGED\"", with: value).utf8).write(to: url)
        }
        #expect {
            try ShardMerge.merge(into: scene.out)
        } throws: { error in
            guard case .badRecord(let path, let named, _) = error as? ShardError else { return false }
            return path.hasSuffix("shards/0-of-2/run.json") && named == "summary.\(field)"
        }
        scene.expectNothingMerged()
    }

    /// Through the binary: exit 2 with the shard and the field, not a trap
    /// (an index out of range; sizes whose total overflows, in every shard's
    /// record so they agree with each other).
    @Test(.enabled(if: FacepipeProcess.available), arguments: ["shard", "inputSizes"])
    func theMergeCommandExitsTwoOnAForgedRecord(field: String) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        for name in ["0-of-2", "1-of-2"] where field == "inputSizes" || name == "1-of-2" {
            try scene.editRecord(name) { record in
                if field == "shard" { record["shard"] = 99 } else {
                    record["inputSizes"] = (record["inputSizes"] as? [Any] ?? []).map { _ in Int64.max }
                }
            }
        }
        let result = try FacepipeProcess.run(["merge", scene.out.path], in: scene.parent)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("shards/0-of-2/_SUCCESS: inputSizes: ") || result.stderr.contains("shards/1-of-2/_SUCCESS: shard: 99"),
                "\(result.stderr)")
        scene.expectNothingMerged()
    }

    // MARK: - Rows 3 and 4: shard counts

    /// A lone `0-of-100000000000` is refused at once (not 10¹¹ folders looked
    /// up); a lone `0-of-100000` lists its missing shards in a few lines.
    @Test(.enabled(if: FacepipeProcess.available), .timeLimit(.minutes(1)))
    func aHugeShardCountIsRefusedAtOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("shards/0-of-100000000000"), withIntermediateDirectories: true)
        let huge = try FacepipeProcess.run(["merge", out.path], in: folder)
        #expect(huge.status == 2, "\(huge.stderr)")
        #expect(huge.stderr.contains("0-of-100000000000: a run is split over at most 100000 shards"), "\(huge.stderr)")

        try FileManager.default.removeItem(at: out.appendingPathComponent("shards/0-of-100000000000"))
        try FileManager.default.createDirectory(at: out.appendingPathComponent("shards/0-of-100000"), withIntermediateDirectories: true)
        let large = try FacepipeProcess.run(["merge", out.path], in: folder)
        #expect(large.status == 2, "\(large.stderr)")
        #expect(large.stderr.contains("100000 of 100000 shards are not complete"), "\(large.stderr.prefix(500))")
        #expect(large.stderr.utf8.count < 8_000, "\(large.stderr.utf8.count) bytes of error")
    }

    @Test(.enabled(if: FacepipeProcess.available))
    func runRefusesAShardCountOverTheLimitAsAUsageError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.tar")
        try Data().write(to: input)
        let result = try FacepipeProcess.run(["run", "upright-png", input.path, "--out", folder.appendingPathComponent("out").path,
                                              "--shard", "0/1000000000000"], in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("at most 100000 shards"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test(arguments: [("0/100000", true), ("99999/100000", true), ("0/100001", false), ("0/1000000000000", false)])
    func theShardCountHasALimit(text: String, accepted: Bool) {
        #expect(((try? Shard(parsing: text)) != nil) == accepted)
    }

    /// A shard's file list (`_SUCCESS.files`) changed after the shard wrote
    /// it: cut short, a line changed, or forged and resealed in `_SUCCESS`
    /// with a path that leaves the folder or rows out of order. Refused,
    /// naming the shard, nothing merged.
    enum ListForgery: String, CaseIterable, Sendable {
        case cutShort, aSizeChanged, aPathLeavingTheFolder, rowsOutOfOrder, aLineTwice
    }

    @Test(arguments: ListForgery.allCases)
    func aChangedFileListIsRefused(_ forgery: ListForgery) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        switch forgery {
        case .cutShort: try scene.editFileList("1-of-2", reseal: false) { $0.removeLast() }
        case .aSizeChanged:
            try scene.editFileList("1-of-2", reseal: false) { lines in
                var fields = lines[1].components(separatedBy: ",")
                fields[2] = String((Int(fields[2]) ?? 0) + 1)
                lines[1] = fields.joined(separator: ",")
            }
        case .aPathLeavingTheFolder:
            try scene.editFileList("1-of-2", reseal: true) { $0.insert("1,images/../../x,1,\(String(repeating: "0", count: 64))", at: 1) }
        case .rowsOutOfOrder: try scene.editFileList("1-of-2", reseal: true) { $0.append($0[1]) }
        case .aLineTwice: try scene.editFileList("1-of-2", reseal: true) { $0.insert($0[1], at: 1) }
        }
        #expect {
            try ShardMerge.merge(into: scene.out)
        } throws: { error in
            switch error as? ShardError {
            case .mismatch(let reason)?: return reason.contains("shards/1-of-2/") && reason.contains("rerun that shard")
            case .badRecord(let path, _, _)?: return path.hasSuffix("shards/1-of-2/_SUCCESS.files")
            default: return false
            }
        }
        scene.expectNothingMerged()
    }

    // MARK: - Row 1: links below OUT

    /// A link in OUT where the merge writes: refused, nothing written through it.
    @Test(arguments: ["images", "faces", "images/part-0.tar"])
    func aLinkInOutStopsTheMergeAndNothingIsWrittenThroughIt(_ planted: String) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        let link = scene.out.appendingPathComponent(planted)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: scene.elsewhere)
        #expect {
            try ShardMerge.merge(into: scene.out)
        } throws: { error in
            "\(error)".contains("symbolic link")
        }
        #expect(OutputLinkTests.listing(scene.elsewhere) == ["keep.txt"])
        scene.expectNothingMerged()
    }

    /// A link in a shard where the merge reads (`shards`, a shard folder,
    /// its records, its output folders): never followed.
    @Test(arguments: ["shards", "shards/0-of-2", "shards/0-of-2/_SUCCESS", "shards/1-of-2/manifest.csv",
                      "shards/1-of-2/run.json", "shards/1-of-2/images", "shards/0-of-2/faces"])
    func aLinkInAShardIsNotFollowed(_ planted: String) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        try scene.replaceWithLink(planted)
        #expect(throws: ShardError.self) { try ShardMerge.merge(into: scene.out) }
        scene.expectNothingMerged()
    }

    /// A file the manifest does not name (here `images/.ssh/authorized_keys`,
    /// even recorded in `_SUCCESS` with its true size and SHA-256) is not merged.
    @Test func onlyTheFilesTheManifestNamesAreMerged() async throws {
        let scene = try await Scene(shards: 1)
        defer { scene.remove() }
        let planted = scene.shard("0-of-1").appendingPathComponent("images/.ssh/authorized_keys")
        try FileManager.default.createDirectory(at: planted.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = Data("ssh-ed25519 AAAA attacker\n".utf8)
        try key.write(to: planted)
        try scene.editFileList("0-of-1", reseal: true) { lines in
            let digest = SHA256.hash(data: key).map { String(format: "%02x", $0) }.joined()
            lines.insert("1,images/.ssh/authorized_keys,\(key.count),\(digest)", at: 1)
        }
        let summary = try ShardMerge.merge(into: scene.out)
        #expect(summary.rows > 0)
        #expect(!FileManager.default.fileExists(atPath: scene.out.appendingPathComponent("images/.ssh").path))
    }

    /// A run with a folder per entry (as `crops/` always has) merges with
    /// few file descriptors: the merge holds only the current file's folders open.
    @Test(.enabled(if: FacepipeProcess.available))
    func aMergeOfManyFoldersHoldsFewDescriptorsOpen() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("many.tar").path
        let writer = try TarWriter(path: input)
        for k in 0..<100 { try writer.add(path: "d\(k)/img.ppm", data: makePPM(background: UInt8(60 + k), square: (x: 2, y: 2, side: 5))) }
        try writer.finish()
        let out = folder.appendingPathComponent("out")
        _ = try await ShardedRun.run(try redSquarePipeline().compile(modelsDirectory: folder), arguments: [input],
                                     shard: try Shard(index: 0, count: 1), out: out,
                                     configuration: ShardMergeTests.configuration(out), toolVersion: "test")
        let child = try FacepipeProcess.start(["-c", "ulimit -n 48 && exec \"$0\" merge \"$1\"", FacepipeProcess.binary.path, out.path],
                                              executable: URL(fileURLWithPath: "/bin/sh"), in: folder)
        let status = child.wait()
        #expect(status == 0, "\(child.standardError)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/many.tar/d99/img.ppm.ppm").path))
    }

    // MARK: - Row 15: a record that lies

    /// What is done to shard 0-of-2 after it wrote `_SUCCESS`.
    enum Lie: String, CaseIterable, Sendable {
        case imagesDeleted, facesDeleted, anImageChanged, anImageReplacedByALink
    }

    @Test(arguments: Lie.allCases)
    func aRecordThatLiesIsRefused(_ lie: Lie) async throws {
        let scene = try await Scene(shards: 2)
        defer { scene.remove() }
        let shard = scene.shard("0-of-2")
        let image = try #require(FileManager.default.enumerator(atPath: shard.appendingPathComponent("images").path)?
            .compactMap { $0 as? String }.sorted().first { $0.hasSuffix(".ppm") })
        let imageURL = shard.appendingPathComponent("images/\(image)")
        switch lie {
        case .imagesDeleted: try FileManager.default.removeItem(at: shard.appendingPathComponent("images"))
        case .facesDeleted: try FileManager.default.removeItem(at: shard.appendingPathComponent("faces"))
        case .anImageChanged: try (try Data(contentsOf: imageURL) + Data([0])).write(to: imageURL)
        case .anImageReplacedByALink: try scene.replaceWithLink("shards/0-of-2/images/\(image)")
        }
        #expect {
            try ShardMerge.merge(into: scene.out)
        } throws: { error in
            guard case .mismatch(let reason) = error as? ShardError else { return false }
            return reason.contains("shards/0-of-2/") && reason.contains("rerun that shard")
        }
        scene.expectNothingMerged()
    }
}
