import ImageCore
import Inference

extension FaceAnalyzer {
    /// A `.tiledLevels` search (`DetectorMode.yunet`, and the searching
    /// half of `.accurate`): `family` (YuNet-s's heads) over the levels and
    /// tiles of its `PyramidSearch`, merged across tiles and levels by
    /// libfacedetection's greedy NMS (IoU 0.45, best score first), with scores
    /// of at least `minimumScore`, and the plan's level images after the
    /// picture, finest first. `detect` filters by size and sorts.
    func searchTiles(with family: DetectorFamily, in image: RGBImage, options: FaceDetectionOptions,
                     minimumScore: Float) throws(FaceAnalysisError) -> (faces: [FaceDetection], levels: [RGBImage]) {
        guard let pyramid = family.pyramid else { throw .invalidOption("detector family \(family) declares no tiled search") }
        let detector = try tiledDetector(family, options.canvasArithmetic)
        detector.minimumScore = minimumScore
        let minWidth = options.minFaceSize.pixels(imageWidth: image.width)
        let plan = SearchPlan(pyramid, width: image.width, height: image.height, minFacePixels: minWidth)
        var found: [FaceDetection] = []
        var levels: [RGBImage] = []
        try plan.forEachLevel(of: image) { (index, levelImage) throws(FaceAnalysisError) in
            if index > 0 { levels.append(levelImage) }
            let scale = plan.levels[index].scale
            for tile in plan.tiles where tile.level == index {
                for detection in try detector.detect(levelImage, x: tile.x, y: tile.y, width: tile.width, height: tile.height)
                where pyramid.keeps(width: detection.box.width, finest: index == 1)
                    && !tile.touchesInnerEdge(minX: detection.box.x - Float(tile.x),
                                              maxX: detection.box.x + detection.box.width - Float(tile.x), margin: pyramid.innerEdgeMargin) {
                    found.append(detection.scaled(by: scale))
                }
            }
        }
        return (YuNetDecoder.suppress(found).filter(\.isFinite).map(\.withBlazeFaceKeypoints), levels)
    }

}

extension FaceDetection {
    /// In the pixels of a picture `scale` times larger.
    func scaled(by scale: Float) -> FaceDetection {
        guard scale != 1 else { return self }
        return FaceDetection(box: Rect(x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale),
                             score: score, keypoints: keypoints.map { Point(x: $0.x * scale, y: $0.y * scale) }, foundBy: foundBy)
    }

    /// A face YuNet-s found (its five landmarks) with BlazeFace's first four
    /// keypoints: the eyes (the picture's left one first, as BlazeFace
    /// orders them), the nose tip and the mouth centre (the mean of YuNet's
    /// two mouth corners). YuNet has no tragions, so there are four.
    var withBlazeFaceKeypoints: FaceDetection {
        let points = keypoints
        let mouth = Point(x: (points[3].x + points[4].x) / 2, y: (points[3].y + points[4].y) / 2)
        return FaceDetection(box: box, score: score, keypoints: [points[0], points[1], points[2], mouth], foundBy: .yunet)
    }
}
