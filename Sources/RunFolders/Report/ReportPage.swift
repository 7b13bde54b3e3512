import Foundation

/// `report.html`: one self-contained page. The report and run.json are
/// embedded as JSON data blocks; the inline script draws the tables, the
/// histograms (inline SVG) and a paged gallery of the annotated images
/// (the first ``RunReport/galleryLimit`` of each filter, with the run's
/// exact counts, so the page stays about the same size for any run),
/// loaded lazily from their relative paths in the output folder. Nothing
/// is fetched from the network: no external scripts, styles or fonts.
enum ReportPage {
    /// The page for `report` and the text of the run.json beside it.
    static func html(_ report: RunReport, runJSON: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        let data = String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self)
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>facepipe report</title>
        <style>
        \(ReportPageAssets.style)
        </style>
        </head>
        <body>
        <header><h1 id="title">facepipe report</h1><p id="subtitle"></p></header>
        <noscript><p class="warning">This page draws its tables, histograms and gallery with its own inline script; allow JavaScript for this file to see them.</p></noscript>
        <main>
        <div class="top">
        <section id="summary"><h2>Run</h2><table class="pairs" id="run-table"></table><h3>Inputs</h3><table id="inputs-table"></table></section>
        <section id="counts"><h2>Counts</h2>
        <div class="columns">
        <div><h3>Manifest rows by status</h3><table id="rows-table"></table></div>
        <div><h3>Entries</h3><table id="entries-table"></table></div>
        <div><h3>Faces</h3><table id="faces-table"></table></div>
        </div></section>
        </div>
        <section id="problems"><h2>Errors, rejections and skipped entries by reason</h2>
        <h3>Errors</h3><table id="errors-table"></table>
        <h3>Rejected faces</h3><table id="rejections-table"></table>
        <h3>Skipped entries</h3><table id="skipped-table"></table></section>
        <section id="histograms"><h2>Kept faces</h2><div class="charts" id="charts"></div></section>
        <section id="gallery"><h2>Annotated images</h2>
        <div class="pager"><label>Show <select id="gallery-filter"></select></label>
        <button id="gallery-previous" type="button">Previous</button><span id="gallery-page"></span>
        <button id="gallery-next" type="button">Next</button></div>
        <div class="grid" id="gallery-grid"></div></section>
        <section id="provenance-section"><h2>Provenance (run.json)</h2><details><summary>Show run.json</summary><pre id="provenance"></pre></details></section>
        </main>
        <script type="application/json" id="report-data">\(scriptData(data))</script>
        <script type="application/json" id="run-json">\(scriptData(runJSON))</script>
        <script>
        \(ReportPageAssets.script)
        </script>
        </body>
        </html>

        """
    }

    /// JSON text safe inside a `<script>` element: `<` only occurs in JSON
    /// strings, where `\\u003c` stands for it, so no `</script` or `<!--` can end the block.
    static func scriptData(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
