import Foundation
import Pipeline

/// The manifest's columns and how a record becomes rows.
///
/// One row per detected face (kept: `status=ok`; filtered out:
/// `status=rejected` with the reason in `rejection`); one `no_face` row for an
/// image where detection found nothing; one `error` row for an entry (or an
/// archive) that failed. Floats have a fixed number of decimals so the bytes
/// are identical across runs. `crop` is the path of the face's first aligned
/// crop (``Crops``; the JSON lists all of them), empty without one.
/// `redact_x`…`redact_h` is the region ``Redact`` painted over for the face
/// (every detected face, kept or rejected, so the rows list every redacted
/// region), empty when no redact stage ran. `frame` and `time` are a video
/// frame's index in its video and presentation time in seconds (6
/// decimals), empty for a still image; they come last so that readers that
/// take columns by position keep working.
public enum Manifest {
    /// The header: ``ManifestColumn``'s names, in order.
    public static let columns = ManifestColumn.allCases.map(\.name)

    /// Rows for a processed entry. `output`/`facesJSON`: paths relative to DIR, or "".
    package static func rows(for record: EntryRecord, output: String, facesJSON: String) -> [ManifestRow] {
        var entry = ManifestRow()
        entry[.archive] = textCell(record.archive)
        entry[.entry] = textCell(record.entry)
        entry[.index] = String(record.index)
        entry[.width] = String(record.width)
        entry[.height] = String(record.height)
        entry[.exifOrientation] = String(record.exifOrientation)
        entry[.output] = output
        entry[.facesJSON] = facesJSON
        setFrame(of: &entry, frame: record.frame, time: record.time)
        guard !record.faces.isEmpty else {
            // Every face column, `rejection` included, is empty; so are `crop` and the redacted region.
            entry[.status] = record.detectionRan ? "no_face" : "ok"
            return [entry]
        }
        return record.faces.map { face in
            func f(_ v: Float?, _ d: Int) -> String { v.map { FixedFormat.string($0, decimals: d) } ?? "" }
            var row = entry
            row[.status] = face.isKept ? "ok" : "rejected"
            row[.face] = String(face.face)
            row[.confidence] = f(face.confidence, 4)
            row[.x] = f(face.box.x, 2)
            row[.y] = f(face.box.y, 2)
            row[.w] = f(face.box.width, 2)
            row[.h] = f(face.box.height, 2)
            row[.roll] = f(face.pose?.roll, 2)
            row[.yaw] = f(face.pose?.yaw, 2)
            row[.pitch] = f(face.pose?.pitch, 2)
            row[.smiling] = f(face.classification?.smiling, 4)
            row[.leftEyeOpen] = f(face.classification?.leftEyeOpen, 4)
            row[.rightEyeOpen] = f(face.classification?.rightEyeOpen, 4)
            row[.quality] = f(face.quality, 4)
            row[.trackingID] = face.trackingID.map(String.init) ?? ""
            row[.rejection] = textCell(face.rejection ?? "")
            row[.crop] = face.crops.first?.path ?? ""
            if let region = face.redaction {
                row[.redactX] = f(region.x, 2)
                row[.redactY] = f(region.y, 2)
                row[.redactW] = f(region.width, 2)
                row[.redactH] = f(region.height, 2)
            }
            return row
        }
    }

    /// The row of an entry or archive that failed.
    /// `known`: what stages before the failure found (fills width, height, exif_orientation).
    /// `frame`, `time`: a video frame's (a failed frame; nil for a still or a whole clip).
    package static func errorRow(archive: String, entry: String, index: Int?, reason: String, known: EntryRecord? = nil,
                         frame: Int? = nil, time: Double? = nil) -> ManifestRow {
        var row = ManifestRow()
        row[.archive] = textCell(archive)
        row[.entry] = textCell(entry)
        row[.index] = index.map(String.init) ?? ""
        row[.status] = "error"
        row[.error] = textCell(reason)
        if let known, known.width > 0 {
            row[.width] = String(known.width)
            row[.height] = String(known.height)
            row[.exifOrientation] = String(known.exifOrientation)
        }
        setFrame(of: &row, frame: frame, time: time)
        return row
    }

    /// The `frame` and `time` cells: empty for a still image.
    private static func setFrame(of row: inout ManifestRow, frame: Int?, time: Double?) {
        row[.frame] = frame.map(String.init) ?? ""
        row[.time] = time.map(FixedFormat.seconds) ?? ""
    }

    /// A text cell (archive, entry, error, rejection) as a spreadsheet must
    /// not run it: one that starts with `=`, `+`, `-`, `@`, TAB or CR (a
    /// formula in Excel, LibreOffice and Google Sheets) gets a leading `'`
    /// (OWASP's advice for CSV injection). The per-image JSON keeps the name
    /// as it is (docs/SAFETY.md).
    static func textCell(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// One CSV line (RFC 4180: fields with comma, quote, CR or LF are quoted,
    /// quotes doubled; CRLF line end). Checked by Unicode scalar, not by
    /// Character: Swift sees CR LF as one Character, equal to neither.
    package static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            if field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) {
                var quoted = "\""
                for scalar in field.unicodeScalars {
                    if scalar == "\"" { quoted += "\"" }
                    quoted.unicodeScalars.append(scalar)
                }
                return quoted + "\""
            }
            return field
        }.joined(separator: ",") + "\r\n"
    }
}
