import Foundation

extension RunReport {
    /// The report's name in an output folder.
    public static let fileName = "report.html"

    /// What run.json holds that the report itself counts (the page shows the rest as it is).
    private struct RunJSONSummary: Decodable {
        struct Summary: Decodable { var skipped: [RunSummary.SkippedRecord] }
        var summary: Summary
    }

    /// The report on the output folder `directory`, from its `manifest.csv`
    /// and `run.json`, with run.json's text for the page.
    public static func read(directory: URL) throws(ReportError) -> (report: RunReport, runJSON: String) {
        let manifestURL = directory.appendingPathComponent("manifest.csv")
        let runJSONURL = directory.appendingPathComponent("run.json")
        let manifestText: String, runJSON: Data
        do {
            manifestText = try String(contentsOf: manifestURL, encoding: .utf8)
        } catch {
            throw .unreadable(file: manifestURL.path, reason: Self.reason(error, reading: manifestURL))
        }
        do {
            runJSON = try Data(contentsOf: runJSONURL)
        } catch {
            throw .unreadable(file: runJSONURL.path, reason: Self.reason(error, reading: runJSONURL))
        }
        let manifest = try ManifestTable(csv: manifestText)
        let summary: RunJSONSummary
        do {
            summary = try JSONDecoder().decode(RunJSONSummary.self, from: runJSON)
        } catch {
            throw .malformedRunJSON(reason: "\(error)")
        }
        let fileManager = FileManager.default
        let imagesInTar = (fileManager.fileExists(atPath: directory.appendingPathComponent("outputs.tar").path)
                           || fileManager.fileExists(atPath: directory.appendingPathComponent("redacted").path))
            && !fileManager.fileExists(atPath: directory.appendingPathComponent("images").path)
        let report = RunReport(manifest: manifest, skipped: summary.summary.skipped, imagesInTar: imagesInTar)
        return (report, String(decoding: runJSON, as: UTF8.self))
    }

    /// Builds the report of the output folder `directory` (``read(directory:)``)
    /// and writes `report.html` there through ``AtomicFile`` (a temporary
    /// file renamed over the name, links not followed). Returns the report.
    @discardableResult
    public static func write(directory: URL) throws(ReportError) -> RunReport {
        let (report, runJSON) = try read(directory: directory)
        let target = directory.appendingPathComponent(fileName)
        do {
            try AtomicFile.write(Array(ReportPage.html(report, runJSON: runJSON).utf8), to: target)
        } catch {
            throw .cannotWrite(path: target.path, reason: "\(error)")
        }
        return report
    }

    /// The OS's reason when the file cannot be opened for reading, else the error's.
    private static func reason(_ error: any Error, reading url: URL) -> String {
        access(url.path, R_OK) != 0 ? String(cString: strerror(errno)) : "\(error)"
    }
}
