/// The formats `facepipe export` writes.
package enum ExportFormat: String, Sendable, CaseIterable {
    /// COCO detection + keypoints JSON (`annotations.json`).
    case coco
    /// Ultralytics YOLO pose: `labels/…/*.txt` beside `images/…`, and `dataset.yaml`.
    case yolo
    /// WIDER FACE's ground-truth txt (`wider_face_bbx_gt.txt`).
    case wider
    /// The `label.txt` RetinaFace trainers read (WIDER FACE with 5 landmarks).
    case retinaface
    /// iBUG `.pts` files, one per face (68 points, 1-based).
    case pts
    /// WebDataset tar shards of upright images and their faces.
    case webdataset

    /// Whether the format cannot point at the original files
    /// (Ultralytics finds labels beside `images/`; a WebDataset sample is its image).
    package var needsImages: Bool { self == .yolo || self == .webdataset }

    /// Where the file's image paths start, inside DEST: DEST itself for COCO
    /// (`file_name` is `images/<name>.png`); `images/` for WIDER FACE and
    /// RetinaFace, whose loaders join each path to the `images/` folder
    /// beside the annotation file. YOLO and PTS name no image, and a
    /// WebDataset sample holds its own.
    var imagePathRoot: String { self == .wider || self == .retinaface ? "images/" : "" }

    /// Whether the format has keypoints (WIDER FACE's has boxes only).
    package var writesKeypoints: Bool { self != .wider }
}

/// How `facepipe export` writes a format.
package struct ExportOptions: Sendable {
    package var format: ExportFormat
    /// The keypoints of `coco` and `webdataset` (`yolo` and `retinaface` use `.five`, `pts` `.ibug68`).
    package var keypoints: KeypointSet
    /// Point at the files the run read instead of writing the clean upright
    /// images into `DEST/images/` (the default). Refused for `yolo` and
    /// `webdataset`, and for any image that is an archive's entry, was read
    /// from a stream, or is turned by its EXIF orientation (its file's
    /// pixels are not the ones the annotations describe).
    package var referenceOriginals: Bool
    /// Samples per WebDataset shard.
    package var shardSize: Int

    package init(format: ExportFormat, keypoints: KeypointSet = .five, referenceOriginals: Bool = false, shardSize: Int = 1000) {
        self.format = format
        self.keypoints = keypoints
        self.referenceOriginals = referenceOriginals
        self.shardSize = shardSize
    }

    /// The keypoint set this format writes (`wider` writes none).
    var effectiveKeypoints: KeypointSet {
        switch format {
        case .yolo, .retinaface: .five
        case .pts: .ibug68
        case .coco, .webdataset, .wider: keypoints
        }
    }
}
