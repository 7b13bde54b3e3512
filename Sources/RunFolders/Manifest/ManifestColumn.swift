/// A column of `manifest.csv`, in the file's order: the one place the
/// columns are named (``Manifest/columns`` lists these names, and a
/// ``ManifestRow`` is read and written by these cases).
package enum ManifestColumn: Int, CaseIterable, Sendable {
    case archive, entry, index, status, error, width, height, exifOrientation
    case face, confidence, x, y, w, h, roll, yaw, pitch
    case smiling, leftEyeOpen, rightEyeOpen, quality, trackingID
    case rejection, output, facesJSON, crop
    case redactX, redactY, redactW, redactH
    case frame, time

    /// The column's name in the header.
    package var name: String {
        switch self {
        case .archive: "archive"
        case .entry: "entry"
        case .index: "index"
        case .status: "status"
        case .error: "error"
        case .width: "width"
        case .height: "height"
        case .exifOrientation: "exif_orientation"
        case .face: "face"
        case .confidence: "confidence"
        case .x: "x"
        case .y: "y"
        case .w: "w"
        case .h: "h"
        case .roll: "roll"
        case .yaw: "yaw"
        case .pitch: "pitch"
        case .smiling: "smiling"
        case .leftEyeOpen: "left_eye_open"
        case .rightEyeOpen: "right_eye_open"
        case .quality: "quality"
        case .trackingID: "tracking_id"
        case .rejection: "rejection"
        case .output: "output"
        case .facesJSON: "faces_json"
        case .crop: "crop"
        case .redactX: "redact_x"
        case .redactY: "redact_y"
        case .redactW: "redact_w"
        case .redactH: "redact_h"
        case .frame: "frame"
        case .time: "time"
        }
    }

    /// The columns of a manifest written before video input (no `frame`
    /// and `time`): still read, each row given empty `frame` and `time`.
    package static let beforeVideo = allCases.prefix { $0 != .frame }

    /// The columns that name an output file of the run folder.
    package static let outputFiles: [ManifestColumn] = [.output, .facesJSON, .crop]
}
