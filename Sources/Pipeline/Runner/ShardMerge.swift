import Foundation

/// `facepipe merge OUT`: checks that every shard under `OUT/shards/` is
/// complete and ran the same pipeline, models and inputs, then gives OUT the
/// layout of one run over the sorted inputs — images and JSON hard-linked
/// (copied across file systems) from the shards, one `manifest.csv` (the
/// shards' rows in shard order, which is input order), one `run.json` (a
/// single run's, with every shard's inputs and provenance). The shards stay as they were, so a merge can be
/// repeated.
public enum ShardMerge {
    public struct Summary: Sendable {
        public var shards: Int
        public var rows: Int
        public var files: Int
        public var pipeline: String
    }

    public static func merge(into out: URL) throws(ShardError) -> Summary {
        let root = out.standardizedFileURL
        let shardsFolder = root.appendingPathComponent("shards")
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: shardsFolder.path) } catch {
            throw .unreadable(path: shardsFolder.path, reason: "no shards here (run `facepipe run … --out \(root.path) --shard auto` first)")
        }
        var found: [Shard] = []
        for name in names.sorted() {
            let parts = name.components(separatedBy: "-of-")
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), let shard = try? Shard(index: i, count: n),
                  shard.folderName == name else { continue }
            found.append(shard)
        }
        guard let count = found.first?.count else { throw .unreadable(path: shardsFolder.path, reason: "no <i>-of-<n> shard folders") }
        if let odd = found.first(where: { $0.count != count }) {
            throw .mismatch("shards of different runs in \(shardsFolder.path): \(found[0].folderName) and \(odd.folderName); remove the folders of the run you do not want")
        }
        var completions: [ShardCompletion?] = []
        for index in 0..<count {
            completions.append(try ShardCompletion.read(from: shardsFolder.appendingPathComponent("\(index)-of-\(count)")))
        }
        let missing = completions.indices.filter { completions[$0] == nil }
        guard missing.isEmpty else {
            throw .incomplete(missing: missing, count: count, rerun: missing.map { rerunCommand(for: $0, count: count, like: completions.compactMap { $0 }.first) })
        }
        let done = completions.compactMap { $0 }
        let reference = done[0]
        for completion in done.dropFirst() {
            let name = "\(completion.shard)-of-\(count)"
            if completion.pipelineFingerprint != reference.pipelineFingerprint || completion.pipeline != reference.pipeline {
                throw .mismatch("shard \(name) ran pipeline \(completion.pipeline) (\(completion.pipelineFingerprint.prefix(12))), shard 0-of-\(count) ran \(reference.pipeline) (\(reference.pipelineFingerprint.prefix(12))): different pipelines or options")
            }
            if completion.models != reference.models {
                throw .mismatch("shard \(name) used models \(completion.models), shard 0-of-\(count) used \(reference.models)")
            }
            if completion.inputs != reference.inputs || completion.inputSizes != reference.inputSizes {
                throw .mismatch("shard \(name) was given a different input list than shard 0-of-\(count)")
            }
        }
        let assignment = ShardAssignment(paths: reference.inputs, sizes: reference.inputSizes, count: count)
        for completion in done where completion.assigned != Array(assignment.blocks[completion.shard]) || completion.shard >= count {
            throw .mismatch("shard \(completion.shard)-of-\(count) processed inputs \(completion.assigned), its block is \(Array(assignment.blocks[completion.shard]))")
        }

        // The manifest: one header, then each shard's rows.
        var manifest = Data()
        var rows = 0
        var provenances: [Any] = []
        for completion in done {
            let folder = shardsFolder.appendingPathComponent("\(completion.shard)-of-\(count)")
            let url = folder.appendingPathComponent("manifest.csv")
            guard let data = try? Data(contentsOf: url) else { throw .unreadable(path: url.path, reason: "missing") }
            guard data.count == completion.manifestBytes, sha256Hex(data) == completion.manifestSHA256 else {
                throw .mismatch("\(url.path) is not the manifest its shard wrote (size or SHA-256 differ from _SUCCESS): rerun that shard")
            }
            guard let headerEnd = data.firstIndex(of: 0x0A) else { throw .unreadable(path: url.path, reason: "no header line") }
            let header = data[..<(headerEnd + 1)]
            if manifest.isEmpty { manifest.append(header) } else if !manifest.starts(with: header) {
                throw .mismatch("\(url.path) has other manifest columns than shard 0-of-\(count)")
            }
            let body = data[(headerEnd + 1)...]
            manifest.append(body)
            rows += body.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let runJSON = folder.appendingPathComponent("run.json")
            guard let provenance = try? JSONSerialization.jsonObject(with: Data(contentsOf: runJSON)) else {
                throw .unreadable(path: runJSON.path, reason: "missing or not JSON")
            }
            provenances.append(provenance)
        }
        // Images and JSON, linked at the same relative paths.
        var files = 0
        for completion in done {
            let folder = shardsFolder.appendingPathComponent("\(completion.shard)-of-\(count)")
            for part in ["images", "faces", "crops"] {
                files += try link(folder.appendingPathComponent(part), into: root.appendingPathComponent(part))
            }
        }
        do {
            try AtomicFile.write(manifest, to: root.appendingPathComponent("manifest.csv"))
            struct Provenance: Decodable { var summary: RunSummary }
            var summaries: [RunSummary] = []
            for completion in done {
                let url = shardsFolder.appendingPathComponent("\(completion.shard)-of-\(count)/run.json")
                summaries.append(try JSONDecoder().decode(Provenance.self, from: Data(contentsOf: url)).summary)
            }
            let summary = try JSONSerialization.jsonObject(with: JSONEncoder().encode(combinedSummary(summaries)))
            // A single run's run.json (so the report, `export` and the next
            // run read it as one): shard 0's, with every shard's inputs in
            // order, the summaries combined, this command line, the earliest
            // start and latest finish, and each shard's own run.json under `shards`.
            let shardRuns = provenances.compactMap { $0 as? [String: Any] }
            var merged = shardRuns.first ?? [:]
            merged["inputs"] = shardRuns.flatMap { ($0["inputs"] as? [Any]) ?? [] }
            merged["summary"] = summary
            merged["commandLine"] = CommandLine.arguments
            if let first = shardRuns.compactMap({ $0["started"] as? String }).min() { merged["started"] = first }
            if let last = shardRuns.compactMap({ $0["finished"] as? String }).max() { merged["finished"] = last }
            merged["merged"] = ["shardCount": count, "inputPaths": reference.inputs, "rows": rows] as [String: Any]
            merged["shards"] = provenances
            var data = try JSONSerialization.data(withJSONObject: merged, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            data.append(0x0A)
            try AtomicFile.write(data, to: root.appendingPathComponent("run.json"))
        } catch {
            throw .unreadable(path: root.path, reason: "cannot write the merged outputs: \(error)")
        }
        do {
            try RunReport.write(directory: root)
        } catch {
            throw .unreadable(path: root.path, reason: "cannot write the report: \(error)")
        }
        return Summary(shards: count, rows: rows, files: files, pipeline: reference.pipeline)
    }

    /// The shards' run summaries as one: counts added, skipped entries
    /// joined in shard order (input order), interrupted if any shard was.
    package static func combinedSummary(_ summaries: [RunSummary]) -> RunSummary {
        var result = RunSummary()
        for summary in summaries {
            result.entries += summary.entries
            result.failedEntries += summary.failedEntries
            result.failedArchives += summary.failedArchives
            result.faces += summary.faces
            result.keptFaces += summary.keptFaces
            result.resumedEntries += summary.resumedEntries
            result.cacheHits += summary.cacheHits
            result.damagedRecords += summary.damagedRecords
            result.redoneEntries += summary.redoneEntries
            result.megapixels += summary.megapixels
            result.skipped += summary.skipped
            result.copiedMembers += summary.copiedMembers
            result.leftOutOfShards += summary.leftOutOfShards
            result.notes += summary.notes
            result.interrupted = result.interrupted || summary.interrupted
            if let failure = summary.writeFailure { result.writeFailure = (result.writeFailure.map { $0 + "; " } ?? "") + failure }
        }
        return result
    }

    /// How to run shard `index` again: the command of a finished shard with its `--shard` replaced.
    static func rerunCommand(for index: Int, count: Int, like completion: ShardCompletion?) -> String {
        guard let arguments = completion?.commandLine, !arguments.isEmpty else {
            return "facepipe run PIPELINE INPUT… --out OUT --shard \(index)/\(count)"
        }
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument == "--shard" || argument == "--shard-count" { skipNext = true; continue }
            if argument.hasPrefix("--shard=") || argument.hasPrefix("--shard-count=") { continue }
            result.append(argument)
        }
        result += ["--shard", "\(index)/\(count)"]
        return result.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// Hard-links every file below `source` to the same relative path below
    /// `destination` (copies when linking is not possible); a file already
    /// there must be the same file or have the same bytes.
    static func link(_ source: URL, into destination: URL) throws(ShardError) -> Int {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else { return 0 }
        guard let walk = manager.enumerator(at: source, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey]) else { return 0 }
        var count = 0
        let prefix = source.standardizedFileURL.path + "/"
        for case let url as URL in walk {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) != true else { continue }
            let relative = String(path.dropFirst(prefix.count))
            let target = destination.appendingPathComponent(relative)
            do {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if manager.fileExists(atPath: target.path) {
                    guard manager.contentsEqual(atPath: target.path, andPath: path) else {
                        throw ShardError.mismatch("\(target.path) exists with other contents (two shards wrote it, or an earlier merge of another run): merge into an empty folder")
                    }
                } else if Foundation.link(path, target.path) != 0 {
                    try manager.copyItem(atPath: path, toPath: target.path)
                }
            } catch let error as ShardError {
                throw error
            } catch {
                throw .unreadable(path: target.path, reason: "\(error)")
            }
            count += 1
        }
        return count
    }
}
