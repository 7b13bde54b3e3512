/// What a run did, for the summary line, run.json and the exit code.
public struct RunSummary: Sendable, Codable {
    /// Entries written to the manifest (processed, failed or resumed).
    public var entries = 0
    public var failedEntries = 0
    /// Archives that could not be opened or ended early (each has an error row).
    public var failedArchives = 0
    public var faces = 0
    public var keptFaces = 0
    public var resumedEntries = 0
    /// Stage results served from the cache.
    public var cacheHits = 0
    /// Stage cache files and completion records that failed their checksum
    /// or checks, or stood for other inputs: recomputed, never used.
    public var damagedRecords = 0
    /// Entries `--resume` redid because an output their record names was
    /// missing or changed.
    public var redoneEntries = 0
    public var megapixels = 0.0
    /// Entries that were not processed (directories, links, files that are
    /// not images…): counted, the first named (``SkippedList``); every one
    /// is a row of `skipped.csv` (`SkippedFile`).
    public var skipped = SkippedList()
    /// `--redacted-shards`: members that are not images, copied into the shards.
    public var copiedMembers = 0
    /// `--redacted-shards`: entries left out of their shard because they
    /// could not be processed (each also has an error row, so the manifest's
    /// error rows are the whole list), in order: counted, the first named.
    public var leftOutOfShards = SkippedList()
    /// `--redacted-shards`: the skipped members that are left out of their
    /// shard (`RedactedTarMember.isLeftOut(_:)`; also in ``skipped``),
    /// which ``line`` names; nil when there are none.
    public var leftOutMembers: SkippedList?
    /// What became of outputs the run could not finish (a redacted shard
    /// whose input was not read to the end).
    public var notes: [String] = []
    /// The run stopped early on request (Ctrl-C, SIGTERM) or at a write
    /// failure; the manifest holds the entries done so far.
    public var interrupted = false
    /// Why writing the outputs failed, when it did (the path and the OS
    /// error); the run stopped there and is incomplete.
    public var writeFailure: String?
    /// Regions covered in video frames where a tracked face was not
    /// detected (`TrackCover`); nil when no video was redacted.
    public var coveredVideoRegions: Int?

    /// Nothing done yet.
    public init() {}

    public struct SkippedRecord: Sendable, Codable, Equatable {
        public var archive: String
        public var index: Int
        public var name: String
        public var reason: String

        public init(archive: String, index: Int, name: String, reason: String) {
            self.archive = archive; self.index = index; self.name = name; self.reason = reason
        }
    }

    /// 0 when every entry succeeded, 1 when some failed, 3 when writing failed.
    public var exitStatus: ExitStatus {
        if writeFailure != nil { return .writeFailed }
        return failedEntries + failedArchives == 0 ? .ok : .someEntriesFailed
    }

    /// How many members left out of the redacted shards ``line`` names.
    static let leftOutMembersNamed = 20

    /// One line for the end of a run.
    public var line: String {
        var parts = [entries.counted("entry", "entries"), faces.counted("face", "faces") + " (\(keptFaces) kept)", "\(failedEntries) failed"]
        if failedArchives > 0 { parts.append("\(failedArchives) archive errors") }
        parts.append(skipped.isEmpty ? "0 skipped" : "\(skipped.count) skipped (listed in \(OutputLayout.skippedName))")
        if copiedMembers > 0 { parts.append("\(copiedMembers) non-image members copied into the redacted shards") }
        if let leftOutMembers, !leftOutMembers.isEmpty {
            // Named here, escaped for the terminal: what a shard does not hold is not silent.
            let shown = leftOutMembers.first.prefix(Self.leftOutMembersNamed)
                .map { TerminalText.escaped(EntryDisplayName.of(archive: $0.archive, entry: $0.name)) }
            let more = leftOutMembers.count - shown.count
            let names = shown.joined(separator: " ") + (more > 0 ? " and \(more) more" : "")
            let counted = leftOutMembers.count.counted("member", "members")
            parts.append("\(counted) left out of the redacted shards (\(names); why in \(OutputLayout.skippedName))")
        }
        if !leftOutOfShards.isEmpty {
            parts.append(leftOutOfShards.count.counted("entry", "entries") + " left out of the redacted shards (the manifest's error rows)")
        }
        if let covered = coveredVideoRegions, covered > 0 {
            parts.append(covered.counted("region", "regions") + " covered in video frames where a tracked face was missed")
        }
        if resumedEntries > 0 { parts.append("\(resumedEntries) resumed") }
        if cacheHits > 0 { parts.append("\(cacheHits) cached stage results reused") }
        if damagedRecords > 0 {
            parts.append("\(damagedRecords) cache " + (damagedRecords == 1 ? "record" : "records") + " damaged, recomputed")
        }
        if redoneEntries > 0 {
            parts.append(redoneEntries.counted("entry", "entries") + " redone (outputs missing or changed)")
        }
        parts += notes
        if let writeFailure {
            // VideoError.outOfMemory's text: memory, not the disk, is what ran out.
            parts.append(writeFailure.contains(": out of memory")
                ? "INCOMPLETE: out of memory while writing outputs; give it more memory or fewer --workers, then rerun with --resume"
                : "INCOMPLETE: writing outputs failed; free space or fix the path, then rerun with --resume")
        } else if interrupted {
            parts.append("INTERRUPTED: rerun with --resume to finish")
        }
        return parts.joined(separator: ", ")
    }
}
