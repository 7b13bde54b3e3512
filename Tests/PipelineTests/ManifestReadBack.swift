import CSV
import Foundation
import Pipeline
import RunFolders
import Testing

/// Reads a run's `manifest.csv` back the way a user's script does — with
/// CSV.swift, a CSV reader of its own (RFC 4180), not facepipe's writer's
/// logic — and checks every row: the header's width, the type of every
/// cell, the status rules, that the files it names exist, and that it
/// agrees with the entry's per-image JSON (faces, kept flags, scores, boxes,
/// crops).
enum ManifestReadBack {
    static let statuses: Set<String> = ["ok", "rejected", "no_face", "error"]
    static let integerColumns = ["index", "width", "height", "exif_orientation", "face", "tracking_id", "frame"]
    static let numberColumns = ["confidence", "x", "y", "w", "h", "roll", "yaw", "pitch",
                                "smiling", "left_eye_open", "right_eye_open", "quality",
                                "redact_x", "redact_y", "redact_w", "redact_h", "time"]
    static let redactionColumns = ["redact_x", "redact_y", "redact_w", "redact_h"]

    /// Records an issue for every way the manifest in `out` breaks the rules; returns its rows.
    @discardableResult
    static func check(_ out: URL) throws -> [[String: String]] {
        let text = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        #expect(reader.headerRow == Manifest.columns, "header")
        var rows: [[String: String]] = []
        while let fields = reader.next() {
            let line = rows.count + 2
            #expect(fields.count == Manifest.columns.count, "line \(line): \(fields.count) fields, header has \(Manifest.columns.count)")
            guard fields.count == Manifest.columns.count else { continue }
            let row = Dictionary(uniqueKeysWithValues: zip(Manifest.columns, fields))
            rows.append(row)
            let status = row["status"]!
            #expect(statuses.contains(status), "line \(line): status \(status)")
            #expect((status == "error") == !row["error"]!.isEmpty, "line \(line): error column and status \(status)")
            #expect((status == "rejected") == !row["rejection"]!.isEmpty, "line \(line): rejection column and status \(status)")
            for column in integerColumns where !row[column]!.isEmpty {
                #expect(Int(row[column]!) != nil, "line \(line): \(column) = \(row[column]!) is not an integer")
            }
            for column in numberColumns where !row[column]!.isEmpty {
                #expect(Double(row[column]!)?.isFinite == true, "line \(line): \(column) = \(row[column]!) is not a number")
            }
            if status == "ok" || status == "rejected" || status == "no_face" {
                #expect(Int(row["width"]!) != nil && Int(row["height"]!) != nil, "line \(line): size")
            }
            if status == "rejected" || (status == "ok" && !row["face"]!.isEmpty) {
                for column in ["face", "confidence", "x", "y", "w", "h"] {
                    #expect(!row[column]!.isEmpty, "line \(line): a face row without \(column)")
                }
            }
            #expect(row["crop"]!.isEmpty || status == "ok", "line \(line): a crop for a face that is not kept")
            let redaction = redactionColumns.filter { !row[$0]!.isEmpty }
            #expect(redaction.isEmpty || redaction.count == 4, "line \(line): part of a redacted region")
            #expect(redaction.isEmpty || !row["face"]!.isEmpty, "line \(line): a redacted region without a face")
            for column in ["output", "faces_json", "crop"] where !row[column]!.isEmpty {
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(row[column]!).path),
                        "line \(line): \(column) \(row[column]!) does not exist")
            }
        }
        try checkAgainstJSON(rows, in: out)
        return rows
    }

    /// A name as the manifest writes it (docs/SAFETY.md): one that a
    /// spreadsheet would run as a formula (`=`, `+`, `-`, `@`, TAB, CR first)
    /// gets a leading `'`; the per-image JSON keeps the name as it is.
    static func spreadsheetSafe(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return name }
        return "'" + name
    }

    /// Each entry's face rows against its per-image JSON.
    static func checkAgainstJSON(_ rows: [[String: String]], in out: URL) throws {
        let byJSON = Dictionary(grouping: rows.filter { !$0["faces_json"]!.isEmpty }) { $0["faces_json"]! }
        for (path, entryRows) in byJSON {
            let data = try Data(contentsOf: out.appendingPathComponent(path))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path)")
            let faces = try #require(document["faces"] as? [[String: Any]], "\(path): faces")
            let faceRows = entryRows.filter { !$0["face"]!.isEmpty }
            #expect(faces.count == faceRows.count, "\(path): \(faces.count) faces in JSON, \(faceRows.count) face rows")
            #expect((document["entry"] as? String).map(spreadsheetSafe) == entryRows[0]["entry"], "\(path): entry")
            #expect(document["width"] as? Int == Int(entryRows[0]["width"]!), "\(path): width")
            for (face, row) in zip(faces, faceRows) {
                #expect(face["face"] as? Int == Int(row["face"]!), "\(path): face number")
                #expect((face["kept"] as? Bool) == (row["status"] == "ok"), "\(path) face \(row["face"]!): kept and status")
                let confidence = try #require(face["confidence"] as? Double)
                #expect(abs(confidence - Double(row["confidence"]!)!) <= 0.00005 + 1e-9, "\(path) face \(row["face"]!): confidence")
                let box = try #require(face["box_px"] as? [Double])
                let columns = ["x", "y", "w", "h"].map { Double(row[$0]!)! }
                #expect(zip(box, columns).allSatisfy { abs($0 - $1) <= 0.005 + 1e-9 }, "\(path) face \(row["face"]!): box \(box) vs \(columns)")
                let firstCrop = (face["crops"] as? [[String: Any]])?.first?["path"] as? String
                #expect((firstCrop ?? "") == row["crop"]!, "\(path) face \(row["face"]!): crop column and the JSON's first crop")
                let region = face["redaction_px"] as? [Double]
                let regionColumns = redactionColumns.map { Double(row[$0]!) }
                if let region {
                    #expect(zip(region, regionColumns).allSatisfy { json, column in column.map { abs(json - $0) <= 0.005 + 1e-9 } ?? false },
                            "\(path) face \(row["face"]!): redaction_px \(region) vs \(regionColumns)")
                } else {
                    #expect(regionColumns.allSatisfy { $0 == nil }, "\(path) face \(row["face"]!): a redacted region the JSON lacks")
                }
            }
        }
    }
}
