import Foundation

/// What `report.html` and `facepipe report` show about an output folder,
/// built from its `manifest.csv` (counts, grouped errors and rejections,
/// histograms, the gallery) and its `run.json` (skipped entries; the page
/// shows the rest of run.json as it is). Everything but run.json's own text
/// comes from the manifest in its order, so the report is the same bytes
/// for any worker count. The manifest is walked row by row
/// (``ManifestReader``) into bounded aggregates: counts, fixed-bin
/// histograms, at most ``ReasonTally/maxReasons`` reasons of each kind, and
/// a gallery of the first ``galleryLimit`` images of each of its filters
/// with every filter's exact count; so the report takes the same memory,
/// and `report.html` about the same size, for 2 000 entries or 100 million.
package struct RunReport: Sendable, Equatable, Encodable {
    /// Manifest rows by status, in ``statuses`` order.
    package var rowsByStatus: [StatusCount]
    /// Entries (images and entries that failed) by what became of them.
    package var entriesByOutcome: [StatusCount]
    /// Archive-level error rows (an input that could not be read to its end).
    package var inputErrors: Int
    package var faces: Int
    package var keptFaces: Int
    package var errors: [ReasonGroup]
    package var rejections: [ReasonGroup]
    package var skipped: [ReasonGroup]
    package var histograms: [Histogram]
    /// Annotated images, in manifest order, one per entry with an output
    /// image: the first ``galleryLimit`` of each filter (``GalleryFilter``),
    /// so each filter's first images are its own first ones in the manifest.
    package var gallery: [GalleryImage]
    /// How many images each filter holds in the whole manifest, in
    /// ``GalleryFilter/allCases`` order (exact, however many the gallery shows).
    package var galleryCounts: [Int]
    /// Whether the images are inside tar files (`outputs.tar` with
    /// `--output-tar`, `redacted/` with `--redacted-shards`): no gallery links.
    package var imagesInTar: Bool
    /// Why the folder's run.json is not a run record facepipe wrote (the
    /// field and what is wrong with it), when it is not; nil when it is.
    package var runRecordProblem: String?

    package struct StatusCount: Sendable, Equatable, Codable {
        package var status: String
        package var count: Int
    }

    /// One annotated image: its path relative to the output folder, the
    /// input and entry it came from, its kept and rejected faces.
    package struct GalleryImage: Sendable, Equatable, Codable {
        package var output: String
        package var archive: String
        /// The entry as the page shows it (`EntryDisplayName.entry(_:)`).
        package var entry: String
        package var kept: Int
        package var rejected: Int
    }

    /// The gallery's filters, in the order the page offers them.
    package enum GalleryFilter: CaseIterable, Sendable {
        case all, withKeptFaces, withRejectedFaces, withoutKeptFaces

        func admits(kept: Int, rejected: Int) -> Bool {
            switch self {
            case .all: true
            case .withKeptFaces: kept > 0
            case .withRejectedFaces: rejected > 0
            case .withoutKeptFaces: kept == 0
            }
        }
    }

    /// The most images the gallery lists of each filter (50 pages of 48).
    package static let galleryLimit = 2400

    /// The manifest's statuses, in the order the report lists them.
    package static let statuses = ["ok", "rejected", "no_face", "error"]
    /// What became of an entry: a kept face (or no detector), only rejected
    /// faces, no face, an error.
    package static let outcomes = ["with kept faces", "only rejected faces", "no face", "processed (no detector)", "error"]

    /// The report on `manifest` (rows in manifest order) and the skipped
    /// entries, grouped by reason (``skippedGroups(in:record:)``).
    package init(manifest: ManifestReader, skipped: [ReasonGroup], imagesInTar: Bool) throws(ReportError) {
        var rowCounts = Dictionary(uniqueKeysWithValues: Self.statuses.map { ($0, 0) })
        var histograms = Histogram.faceHistograms()
        var errors = ReasonTally(), rejections = ReasonTally()
        var gallery: [GalleryImage] = []
        var galleryCounts = [Int](repeating: 0, count: GalleryFilter.allCases.count)
        var outcomes = Dictionary(uniqueKeysWithValues: Self.outcomes.map { ($0, 0) })
        var inputErrors = 0, faces = 0, kept = 0

        // Rows of one entry are adjacent; each entry's outcome is settled when the next starts.
        var current: (key: [String], kept: Int, rejected: Int, status: String, image: GalleryImage?)?
        func settle() {
            guard let entry = current else { return }
            let outcome: String
            switch entry.status {
            case "error": outcome = "error"
            case "no_face": outcome = "no face"
            default: outcome = entry.kept > 0 ? "with kept faces" : entry.rejected > 0 ? "only rejected faces" : "processed (no detector)"
            }
            outcomes[outcome, default: 0] += 1
            if var image = entry.image {
                image.kept = entry.kept
                image.rejected = entry.rejected
                var shown = false
                for (number, filter) in GalleryFilter.allCases.enumerated() where filter.admits(kept: entry.kept, rejected: entry.rejected) {
                    if galleryCounts[number] < Self.galleryLimit { shown = true }
                    galleryCounts[number] += 1
                }
                if shown { gallery.append(image) }
            }
        }
        while let row = try manifest.nextRow() {
            let status = row[.status]
            rowCounts[status, default: 0] += 1
            let name = EntryDisplayName.of(archive: row[.archive], entry: row[.entry])
            guard !row[.index].isEmpty else {
                // An archive error: no entry of its own.
                inputErrors += 1
                errors.add(row[.error], entry: name)
                continue
            }
            let key = [row[.archive], row[.entry], row[.index]]
            if current?.key != key {
                settle()
                // Only a path inside the folder becomes a gallery image (not `/etc/passwd`, `//host/x.png`, `../x`),
                // and not a video's frames written into one video (`VideoOutput`: named .mp4, .mov, .m4v or .mkv).
                let intoVideo = !row[.frame].isEmpty && [".mp4", ".mov", ".m4v", ".mkv"].contains { row[.output].lowercased().hasSuffix($0) }
                let output = RunFolder.components(of: row[.output]) == nil || intoVideo ? "" : row[.output]
                current = (key, 0, 0, status, output.isEmpty ? nil
                           : GalleryImage(output: row[.output], archive: row[.archive], entry: EntryDisplayName.entry(row[.entry]),
                                          kept: 0, rejected: 0))
            }
            switch status {
            case "error":
                errors.add(row[.error], entry: name)
            case "rejected":
                faces += 1
                current?.rejected += 1
                rejections.add(row[.rejection], entry: name)
            case "ok" where !row[.face].isEmpty:
                faces += 1
                kept += 1
                current?.kept += 1
                for h in histograms.indices {
                    if let value = Double(row[histograms[h].source]) { histograms[h].add(value) }
                }
            default:
                break
            }
        }
        settle()
        rowsByStatus = Self.statuses.map { StatusCount(status: $0, count: rowCounts[$0] ?? 0) }
            + rowCounts.keys.filter { !Self.statuses.contains($0) }.sorted().map { StatusCount(status: $0, count: rowCounts[$0]!) }
        entriesByOutcome = Self.outcomes.map { StatusCount(status: $0, count: outcomes[$0] ?? 0) }
        self.inputErrors = inputErrors
        self.faces = faces
        keptFaces = kept
        self.errors = errors.grouped
        self.rejections = rejections.grouped
        self.skipped = skipped
        self.histograms = histograms
        self.gallery = imagesInTar ? [] : gallery
        self.galleryCounts = imagesInTar ? galleryCounts.map { _ in 0 } : galleryCounts
        self.imagesInTar = imagesInTar
    }

    /// Entries in the manifest (each image once, whatever its rows).
    package var entries: Int { entriesByOutcome.reduce(0) { $0 + $1.count } }
}
