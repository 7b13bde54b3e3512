/// Counts of a manifest column's values in fixed bins, for `report.html`:
/// the page draws the bars; the bins are the same for every run, so two
/// reports compare at a glance.
package struct Histogram: Sendable, Equatable, Encodable {
    /// The manifest column counted.
    package let source: ManifestColumn
    /// Its name, as the page shows it.
    package var column: String
    package var title: String
    /// Bin edges, ascending: bin i holds values in `edges[i] ..< edges[i+1]`;
    /// values below the first edge count in the first bin, values from the
    /// last edge on in the last (shown as open-ended).
    package var edges: [Double]
    package var counts: [Int]

    /// The report's JSON: what the page reads (not `source`).
    private enum CodingKeys: String, CodingKey {
        case column, title, edges, counts
    }

    package init(column: ManifestColumn, title: String, edges: [Double]) {
        precondition(edges.count >= 2, "a histogram needs at least one bin")
        source = column
        self.column = column.name
        self.title = title
        self.edges = edges
        counts = Array(repeating: 0, count: edges.count - 1)
    }

    package mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        var bin = 0
        while bin + 1 < counts.count && value >= edges[bin + 1] { bin += 1 }
        counts[bin] += 1
    }

    /// The histograms a report shows, over kept faces: width in pixels,
    /// detector confidence, head pose in degrees, capture quality.
    package static func faceHistograms() -> [Histogram] {
        let unit = (0...20).map { Double($0) / 20 }
        let degrees = stride(from: -90.0, through: 90, by: 10).map { $0 }
        return [
            Histogram(column: .w, title: "face width (px)",
                      edges: [0, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920]),
            Histogram(column: .confidence, title: "confidence", edges: unit),
            Histogram(column: .yaw, title: "yaw (degrees)", edges: degrees),
            Histogram(column: .pitch, title: "pitch (degrees)", edges: degrees),
            Histogram(column: .roll, title: "roll (degrees)", edges: degrees),
            Histogram(column: .quality, title: "quality", edges: unit),
        ]
    }
}
