import ImageCore

extension FaceAnalyzer {
    /// `RecallReread`: those of `faces` (low canvas faces, in picture
    /// pixels) that `family` (a tiled family: YuNet-s) finds again from
    /// `RecallReread.minScore` on their re-read squares, scaled up as the
    /// rule says; an overlap is measured on `TurnedFaceBox`'s box.
    func reread(_ faces: [FaceDetection], with family: DetectorFamily, in image: RGBImage,
                options: FaceDetectionOptions) throws(FaceAnalysisError) -> [FaceDetection] {
        guard !faces.isEmpty else { return [] }
        let detector = try tiledDetector(family, options.canvasArithmetic)
        let searchFloor = detector.minimumScore
        detector.minimumScore = RecallReread.minScore
        defer { detector.minimumScore = searchFloor }
        var kept: [FaceDetection] = []
        for face in faces {
            guard let square = RecallReread.square(around: face.box, width: image.width, height: image.height) else { continue }
            let scale = RecallReread.scale(for: face.box)
            var read = image
            do {
                read = try image.cropped(to: Rect(x: Float(square.x), y: Float(square.y), width: Float(square.width), height: Float(square.height)))
                if scale > 1 {
                    read = try read.resizedBilinear(width: Int((Float(square.width) * scale).rounded()),
                                                    height: Int((Float(square.height) * scale).rounded()))
                }
            } catch {
                throw .imageUnsearchable(width: image.width, height: image.height, reason: "re-reading a face's square: \(error)")
            }
            let sx = Float(square.width) / Float(read.width), sy = Float(square.height) / Float(read.height)
            let agrees = try detector.detect(read).contains { found in
                let box = Rect(x: Float(square.x) + found.box.x * sx, y: Float(square.y) + found.box.y * sy,
                               width: found.box.width * sx, height: found.box.height * sy)
                return box.intersectionOverUnion(TurnedFaceBox.box(face.box, keypoints: face.keypoints)) >= DetectorFusion.pairingIoU
            }
            if agrees { kept.append(face) }
        }
        return kept
    }
}
