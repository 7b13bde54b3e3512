import ImageCore

extension FaceAnalyzer {
    /// Accurate mode's BlazeFace faces (`BlazeFaceConfirmation`): the
    /// short-range model on a square around each of YuNet's `candidates`
    /// it asks about (`BlazeFaceConfirmation.asks(about:)`; keeping the
    /// faces that overlap that candidate) and on the whole
    /// frame, merged by weighted NMS, with `TurnedFaceBox`'s boxes, in
    /// `image` pixels. Each square is read from the smallest of `image` and
    /// its `levels` (smaller copies, finest first) on which it still spans
    /// the model's input, so a large face costs no more than a small one;
    /// the whole frame from the last.
    func confirm(_ candidates: [FaceDetection], with family: DetectorFamily, in image: RGBImage,
                 levels: [RGBImage]) throws(FaceAnalysisError) -> [FaceDetection] {
        let (runner, decoder) = try wholeFrameDetector(family)
        let size = decoder.configuration.inputSize
        let pictures = [image] + levels
        /// BlazeFace's faces in `square` (picture pixels) read from `pictures[index]`, in picture pixels.
        func run(_ square: SquareRegion, on index: Int, minScore: Float) throws(FaceAnalysisError) -> [FaceDetection] {
            let picture = pictures[index]
            let sx = Float(image.width) / Float(picture.width), sy = Float(image.height) / Float(picture.height)
            let onPicture = SquareRegion(x: square.x / sx, y: square.y / sy, side: square.side / sx)
            return try Self.detect(in: picture, square: onPicture, runner: runner, decoder: decoder, minScore: minScore).map { detection in
                let face = onPicture.toImage(detection)
                return FaceDetection(box: Rect(x: face.box.x * sx, y: face.box.y * sy, width: face.box.width * sx, height: face.box.height * sy),
                                     score: face.score, keypoints: face.keypoints.map { Point(x: $0.x * sx, y: $0.y * sy) })
            }
        }
        var found: [FaceDetection] = []
        for candidate in candidates {
            let asked = BlazeFaceConfirmation.asks(about: candidate)
            searchObserver?.confirming(candidate, asked: asked)
            guard asked else { continue }
            let square = BlazeFaceConfirmation.square(around: candidate.box, inputSize: size)
            let index = pictures.indices.last { Float(image.width) / Float(pictures[$0].width) * Float(size) <= square.side } ?? 0
            for face in try run(square, on: index, minScore: BlazeFaceConfirmation.confirmingMinScore(for: candidate))
            where TurnedFaceBox.box(face.box, keypoints: face.keypoints).intersectionOverUnion(candidate.box) >= DetectorFusion.pairingIoU {
                found.append(face)
            }
        }
        let last = pictures.count - 1, frame = SquareRegion.letterbox(width: pictures[last].width, height: pictures[last].height)
        let scale = Float(image.width) / Float(pictures[last].width)
        found += try run(SquareRegion(x: frame.x * scale, y: frame.y * scale, side: frame.side * scale), on: last,
                         minScore: BlazeFaceConfirmation.wholeFrameMinScore)
        return Self.mergeAcrossRegions(found).map { face in
            FaceDetection(box: TurnedFaceBox.box(face.box, keypoints: face.keypoints), score: face.score, keypoints: face.keypoints)
        }
    }
}
