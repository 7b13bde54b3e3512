import Foundation
import ImageCore

/// Writes the per-image JSON: every face with all its points in two
/// conventions — `px`: upright-image pixels, origin top-left, y down;
/// `vision`: Apple Vision's normalized coordinates, origin bottom-left, y up
/// (boxes and points normalized to the image size).
///
/// Hand-written so that the bytes are fixed: keys in a fixed order, pixels
/// with 3 decimals, normalized values with 6.
package enum FaceJSONEncoder {
    package static func encode(_ record: EntryRecord) -> [UInt8] {
        var out = JSONText()
        let w = Float(max(record.width, 1)), h = Float(max(record.height, 1))
        out.open("{")
        out.key("archive"); out.string(record.archive)
        out.key("entry"); out.string(record.entry)
        out.key("index"); out.int(record.index)
        // A video frame's index and time (absent for a still image, whose JSON is as before).
        if let frame = record.frame { out.key("frame"); out.int(frame) }
        if let time = record.time { out.key("time"); out.raw(FixedFormat.seconds(time)) }
        out.key("width"); out.int(record.width)
        out.key("height"); out.int(record.height)
        out.key("exif_orientation"); out.int(record.exifOrientation)
        out.key("warnings"); out.array(record.warnings) { out, warning in out.string(warning) }
        out.key("coordinates"); out.string("px: upright image pixels, origin top-left; vision: normalized 0-1, origin bottom-left")
        out.key("faces")
        out.array(record.faces) { out, face in
            out.open("{")
            out.key("face"); out.int(face.face)
            out.key("kept"); out.bool(face.isKept)
            out.key("rejection"); if let r = face.rejection { out.string(r) } else { out.null() }
            out.key("confidence"); out.fixed(face.confidence, 6)
            out.key("found_by"); out.string(face.foundBy.rawValue)
            out.key("box_px")
            out.floats([face.box.x, face.box.y, face.box.width, face.box.height], 3)
            out.key("box_vision")
            out.floats([face.box.x / w, 1 - (face.box.y + face.box.height) / h, face.box.width / w, face.box.height / h], 6)
            out.key("keypoints_px"); out.points(face.keypoints.map { ($0.x, $0.y) }, 3)
            out.key("keypoints_vision"); out.points(face.keypoints.map { ($0.x / w, 1 - $0.y / h) }, 6)
            out.key("pose_degrees")
            if let p = face.pose {
                out.open("{")
                out.key("roll"); out.fixed(p.roll, 3)
                out.key("yaw"); out.fixed(p.yaw, 3)
                out.key("pitch"); out.fixed(p.pitch, 3)
                out.close("}")
            } else { out.null() }
            out.key("classification")
            if let c = face.classification {
                out.open("{")
                out.key("smiling"); out.fixed(c.smiling, 4)
                out.key("left_eye_open"); out.fixed(c.leftEyeOpen, 4)
                out.key("right_eye_open"); out.fixed(c.rightEyeOpen, 4)
                out.close("}")
            } else { out.null() }
            out.key("quality"); if let q = face.quality { out.fixed(q, 4) } else { out.null() }
            out.key("tracking_id"); if let t = face.trackingID { out.int(t) } else { out.null() }
            if let r = face.redaction {
                out.key("redaction_px"); out.floats([r.x, r.y, r.width, r.height], 3)
            }
            if !face.crops.isEmpty {
                out.key("crops")
                out.array(face.crops) { out, crop in
                    let m = crop.imageToCrop
                    out.open("{")
                    out.key("kind"); out.string(crop.kind.rawValue)
                    out.key("size"); out.int(crop.size)
                    out.key("path"); out.string(crop.path ?? "")
                    out.key("image_to_crop"); out.floats([m.a, m.b, m.tx, m.c, m.d, m.ty], 6)
                    out.close("}")
                }
            }
            out.key("points")
            out.open("{")
            for group in face.pointGroups {
                out.key(group.name)
                out.open("{")
                out.key("px"); out.points(zip(group.x, group.y).map { ($0, $1) }, 3)
                out.key("vision"); out.points(zip(group.x, group.y).map { ($0 / w, 1 - $1 / h) }, 6)
                if let z = group.z { out.key("z"); out.floats(z, 3) }
                out.close("}")
            }
            out.close("}")
            out.close("}")
        }
        out.close("}")
        out.text.append("\n")
        return Array(out.text.utf8)
    }
}
