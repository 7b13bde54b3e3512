import ArgumentParser
import Foundation
import Pipeline
import RunFolders

/// `facepipe report DIR`: rebuilds `DIR/report.html` and prints its summary.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Rebuild DIR/report.html from DIR's manifest.csv and run.json and print a summary.",
        discussion: """
        Every run writes report.html; this rebuilds it (after a facepipe upgrade, or \
        from a copied output folder) and prints the counts by status, the face count \
        and the errors, rejected faces and skipped entries grouped by reason. \
        Exit code 2 when DIR holds no readable manifest.csv and run.json.
        """
    )

    @Argument(help: ArgumentHelp("An output folder of `facepipe run`.", valueName: "DIR"))
    var directory: String

    func run() throws {
        let report: RunReport
        do {
            report = try RunReport.write(directory: URL(fileURLWithPath: directory))
        } catch {
            throw UsageFailure(message: TerminalText.escaped(error.description))
        }
        let path = (directory as NSString).appendingPathComponent(OutputLayout.reportName)
        print(report.text + "wrote \(path)")
    }
}
