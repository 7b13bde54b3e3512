import ImageCore

extension SquareRegion {
    /// Maps a detection normalized to this square into image pixels.
    package func toImage(_ detection: DetectionCandidate) -> FaceDetection {
        let c = detection.coordinates
        let box = Rect(x: x + c[0] * side, y: y + c[1] * side,
                       width: (c[2] - c[0]) * side, height: (c[3] - c[1]) * side)
        let keypoints = (0..<6).map { k in Point(x: x + c[4 + 2 * k] * side, y: y + c[5 + 2 * k] * side) }
        return FaceDetection(box: box, score: detection.score, keypoints: keypoints)
    }
}
