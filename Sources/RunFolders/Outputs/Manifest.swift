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
    public static let columns = [
        "archive", "entry", "index", "status", "error", "width", "height", "exif_orientation",
        "face", "confidence", "x", "y", "w", "h", "roll", "yaw", "pitch",
        "smiling", "left_eye_open", "right_eye_open", "quality", "tracking_id",
        "rejection", "output", "faces_json", "crop",
        "redact_x", "redact_y", "redact_w", "redact_h",
        "frame", "time",
    ]

    /// The `frame` and `time` cells of an entry: empty for a still image.
    static func frameCells(frame: Int?, time: Double?) -> [String] {
        [frame.map(String.init) ?? "", time.map(FixedFormat.seconds) ?? ""]
    }

    /// Rows for a processed entry. `output`/`facesJSON`: paths relative to DIR, or "".
    package static func rows(for record: EntryRecord, output: String, facesJSON: String) -> [[String]] {
        let base = [textCell(record.archive), textCell(record.entry), String(record.index)]
        let size = [String(record.width), String(record.height), String(record.exifOrientation)]
        let frame = frameCells(frame: record.frame, time: record.time)
        guard !record.faces.isEmpty else {
            let status = record.detectionRan ? "no_face" : "ok"
            // Every face column, `rejection` included, is empty; so are `crop` and the redacted region.
            let noFace = [String](repeating: "", count: columns.count - base.count - 2 - size.count - 7 - frame.count)
            return [base + [status, ""] + size + noFace + [output, facesJSON] + [String](repeating: "", count: 5) + frame]
        }
        return record.faces.map { face in
            func f(_ v: Float?, _ d: Int) -> String { v.map { FixedFormat.string($0, decimals: d) } ?? "" }
            let faceColumns = [
                String(face.face), f(face.confidence, 4),
                f(face.box.x, 2), f(face.box.y, 2), f(face.box.width, 2), f(face.box.height, 2),
                f(face.pose?.roll, 2), f(face.pose?.yaw, 2), f(face.pose?.pitch, 2),
                f(face.classification?.smiling, 4), f(face.classification?.leftEyeOpen, 4),
                f(face.classification?.rightEyeOpen, 4), f(face.quality, 4),
                face.trackingID.map(String.init) ?? "",
            ]
            let redaction = face.redaction.map { [f($0.x, 2), f($0.y, 2), f($0.width, 2), f($0.height, 2)] }
                ?? ["", "", "", ""]
            return base + [face.isKept ? "ok" : "rejected", ""] + size + faceColumns
                + [textCell(face.rejection ?? ""), output, facesJSON, face.crops.first?.path ?? ""] + redaction + frame
        }
    }

    /// The row of an entry or archive that failed.
    /// `known`: what stages before the failure found (fills width, height, exif_orientation).
    /// `frame`, `time`: a video frame's (a failed frame; nil for a still or a whole clip).
    package static func errorRow(archive: String, entry: String, index: Int?, reason: String, known: EntryRecord? = nil,
                         frame: Int? = nil, time: Double? = nil) -> [String] {
        let size = known.map { $0.width > 0 ? [String($0.width), String($0.height), String($0.exifOrientation)] : ["", "", ""] }
            ?? ["", "", ""]
        return [textCell(archive), textCell(entry), index.map(String.init) ?? "", "error", textCell(reason)] + size
            + [String](repeating: "", count: columns.count - 10) + frameCells(frame: frame, time: time)
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
