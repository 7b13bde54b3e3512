import ArchiveIO
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import RunFolders
import Testing
import _TestSupport

/// Skipped entries (issue 51), through the real binary: run.json held one
/// record per skipped entry, in memory until the end of the run and then in
/// the file (a tar of 100 million members, 10 % not images, would have
/// held 10 million); now it keeps the count and the first few, and
/// `skipped.csv` lists them all as they are seen. (A cluster task's and
/// `merge`'s memory: ``FlatMemoryTests``.)
@Suite(.enabled(if: FacepipeProcess.available, "needs the built facepipe binary (swift build --build-tests)"))
struct FlatMemoryListTests {
    static let png: [UInt8] = {
        (try? FastPNGEncoder.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)))) ?? []
    }()

    /// A tar of `count` members, each 100th of which is a PNG
    /// and the rest symbolic links (skipped: not regular files).
    static func linkTar(_ name: String, members count: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let writer = try TarWriter(path: path)
        for index in 0..<count {
            if index % 100 == 0 {
                try writer.add(path: String(format: "m/%05d.png", index), data: png)
            } else {
                try writer.addSymbolicLink(path: String(format: "m/%05d.jpg", index), target: "/etc/passwd")
            }
        }
        try writer.finish()
        return path
    }

    /// Two tars of 1 500 members, 1 485 of them links: run.json keeps the
    /// count and the first ``SkippedList/exampleLimit`` links, small;
    /// `skipped.csv` lists every one in archive order, the same after
    /// `--resume`, with two workers, and after a merge of two shards.
    @Test func manySkippedMembersKeepRunJSONSmallAndAreAllListedInSkippedCSV() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tars = try ["a.tar", "b.tar"].map { try Self.linkTar($0, members: 1500, in: folder) }
        let expected = tars.flatMap { tar in
            (0..<1500).filter { $0 % 100 != 0 }.map { [(tar as NSString).lastPathComponent, String(format: "m/%05d.jpg", $0), String($0), "symlink: not a regular file"] }
        }
        func skippedRows(_ out: String) throws -> [[String]] {
            parseCSV(try String(contentsOf: folder.appendingPathComponent(out).appendingPathComponent("skipped.csv"), encoding: .utf8))
        }
        let (status, stderr) = try FacepipeProcess.run(["run", "--pipeline", "upright-png"] + tars + ["--out", "one", "-j", "1"], in: folder)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("2970 skipped (listed in skipped.csv)"), "\(stderr)")
        let rows = try skippedRows("one")
        #expect(rows.first == ["archive", "entry", "index", "reason"])
        #expect(Array(rows.dropFirst()) == expected, "every skipped member, in archive order")

        let runJSON = try Data(contentsOf: folder.appendingPathComponent("one/run.json"))
        #expect(runJSON.count < 48 << 10, "run.json is \(runJSON.count) bytes")
        let summary = try #require((try JSONSerialization.jsonObject(with: runJSON) as? [String: Any])?["summary"] as? [String: Any])
        let skipped = try #require(summary["skipped"] as? [String: Any])
        #expect(skipped["count"] as? Int == expected.count)
        let first = try #require(skipped["first"] as? [[String: Any]])
        #expect(first.compactMap { $0["name"] as? String } == expected.prefix(SkippedList.exampleLimit).map { $0[1] })

        let original = try Data(contentsOf: folder.appendingPathComponent("one/skipped.csv"))
        let (resumed, resumeErrors) = try FacepipeProcess.run(["run", "--pipeline", "upright-png"] + tars + ["--out", "one", "--resume", "-j", "2"], in: folder)
        #expect(resumed == 0, "\(resumeErrors)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("one/skipped.csv")) == original, "--resume writes it anew, the same")

        for index in 0..<2 {
            let (shardStatus, shardErrors) = try FacepipeProcess.run(["run", "--pipeline", "upright-png"] + tars
                + ["--out", "sharded", "--shard", "\(index)/2", "-j", "2"], in: folder)
            #expect(shardStatus == 0, "\(shardErrors)")
        }
        let (mergeStatus, mergeErrors) = try FacepipeProcess.run(["merge", "sharded"], in: folder)
        #expect(mergeStatus == 0, "\(mergeErrors)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("sharded/skipped.csv")) == original,
                "the merge joins the shards' lists in shard order: one run's list")
        #expect(try Data(contentsOf: folder.appendingPathComponent("sharded/manifest.csv"))
                == Data(contentsOf: folder.appendingPathComponent("one/manifest.csv")))
        let merged = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("sharded/run.json"))) as? [String: Any])?["summary"] as? [String: Any])
        #expect((merged["skipped"] as? [String: Any])?["count"] as? Int == expected.count)
        #expect(((merged["skipped"] as? [String: Any])?["first"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                == expected.prefix(SkippedList.exampleLimit).map { $0[1] })
    }
}
