import Foundation

extension RunReport {
    /// The skipped entries of the run folder grouped by reason: every row of
    /// its `skipped.csv`, read one at a time (``ReasonTally``: bounded);
    /// a folder written before that file existed: the ones `record` names.
    static func skippedGroups(in folder: RunFolder, record: RunRecord?) throws(ReportError) -> [ReasonGroup] {
        var tally = ReasonTally()
        func add(_ skipped: RunSummary.SkippedRecord) {
            tally.add(skipped.reason, entry: EntryDisplayName.of(archive: skipped.archive, entry: skipped.name))
        }
        guard folder.holds(OutputLayout.skippedName) else {
            record?.summary.skipped.first.forEach(add)
            return tally.grouped
        }
        let shown = folder.root.appendingPathComponent(OutputLayout.skippedName).path
        let file: RegularFile
        do { file = try folder.open(OutputLayout.skippedName) } catch { throw .unreadable(file: shown, reason: error.reason) }
        // The reader reads `file`'s descriptor, which `file` closes when it goes.
        try withExtendedLifetime(file) { () throws(ReportError) in
            let reader = try ManifestReader(descriptor: file.descriptor, shownAs: shown, header: SkippedFile.columns)
            try SkippedFile.read(reader, add)
        }
        return tally.grouped
    }

    /// The report on the output folder `directory`, from its `manifest.csv`
    /// and `run.json` (read through ``RunFolder``: no link followed), with
    /// run.json's text for the page (a UTF-8 byte order mark dropped). The
    /// report counts the skipped entries of the run record
    /// (``RunRecord/init(decoding:)``); a run.json that is not one still
    /// gets its page, showing its text, and the report says why
    /// (``runRecordProblem``).
    package static func read(directory: URL) throws(ReportError) -> (report: RunReport, runJSON: String) {
        let folder = RunFolder(directory)
        let manifest = try ManifestReader(in: folder)
        var runJSON: Data
        do {
            runJSON = Data(try folder.read(OutputLayout.runRecordName))
        } catch {
            throw .unreadable(file: directory.appendingPathComponent(OutputLayout.runRecordName).path, reason: error.reason)
        }
        if runJSON.starts(with: [0xEF, 0xBB, 0xBF]) { runJSON.removeFirst(3) }
        let record: RunRecord?
        var problem: String?
        do throws(RunRecord.Failure) { record = try RunRecord(decoding: runJSON) } catch {
            record = nil
            problem = "\(OutputLayout.runRecordName): \(error); its skipped entries are not listed"
        }
        let imagesInTar = (folder.holds(OutputLayout.outputTarsFolder) || folder.holds(OutputLayout.singleOutputTarName) || folder.holds(OutputLayout.redactedFolder)) && !folder.holds(OutputLayout.imagesFolder)
        let skipped = try skippedGroups(in: folder, record: record)
        var report = try RunReport(manifest: manifest, skipped: skipped, imagesInTar: imagesInTar)
        report.runRecordProblem = problem
        return (report, String(decoding: runJSON, as: UTF8.self))
    }

    /// Builds the report of the output folder `directory` (``read(directory:)``)
    /// and writes `report.html` there through `AtomicFile` (a temporary
    /// file renamed over the name, links not followed). Returns the report.
    @discardableResult
    package static func write(directory: URL) throws(ReportError) -> RunReport {
        let (report, runJSON) = try read(directory: directory)
        let target = directory.appendingPathComponent(OutputLayout.reportName)
        do {
            try AtomicFile.write(Array(ReportPage.html(report, runJSON: runJSON).utf8), to: target)
        } catch {
            throw .cannotWrite(path: target.path, reason: "\(error)")
        }
        return report
    }
}
