/// A keypoint as the export writes it: inside the image it is labelled
/// (COCO/YOLO visibility 2); outside, absent (visibility 0, coordinates 0).
struct ExportKeypoint {
    var x: Double
    var y: Double
    var labelled: Bool
}

extension ExportImage {
    /// `face`'s points of `set`, each marked labelled when inside the image.
    func keypoints(_ set: KeypointSet, of face: ExportFace) throws(ExportError) -> [ExportKeypoint] {
        try set.points(of: face, in: self).map { point in
            let inside = point.x >= 0 && point.y >= 0 && point.x <= Double(width) && point.y <= Double(height)
            return inside ? ExportKeypoint(x: point.x, y: point.y, labelled: true) : ExportKeypoint(x: 0, y: 0, labelled: false)
        }
    }
}
