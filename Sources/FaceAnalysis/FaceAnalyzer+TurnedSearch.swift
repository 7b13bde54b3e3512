import ImageCore

extension FaceAnalyzer {
    /// Faces whose boxes overlap by more than this are one face when a
    /// turned search's faces join the first search's (the weighted NMS's
    /// bar: a face's two boxes differ in size by up to 1.5× between the
    /// searches, IoU 0.44).
    static let turnedSearchOverlap: Float = NonMaximumSuppression.weightedThreshold

    /// `found` (the faces a search of `image` found, unfiltered) with those
    /// of a second search of the picture turned upright, when the faces
    /// show the picture tilted (``PictureTilt``; boxes ``NestedFaces``
    /// drops do not vote) and `allowTiling` is set;
    /// `found` itself otherwise, at no cost.
    ///
    /// The picture is turned by the tilt (`RGBImage.turned`, integer
    /// resampling onto a canvas holding all of it) and searched with the
    /// same composition and the same smallest face in pixels; each face
    /// found there is mapped back: keypoints through the canvas's map, the
    /// box about its mapped centre, the canvas's size grown as
    /// `TurnedFaceBox` grows a face turned by the tilt. Faces the
    /// canvas's edge cuts (centre outside the picture) are dropped. The
    /// two searches' faces are merged by libfacedetection's greedy NMS
    /// (`NonMaximumSuppression.greedyKept`, IoU `turnedSearchOverlap`):
    /// of one face's two detections the higher score stays, which is
    /// usually the upright one.
    func addingTurnedFaces(to found: [FaceDetection], in image: RGBImage, composition: DetectorComposition,
                           options: FaceDetectionOptions, allowTiling: Bool) throws(FaceAnalysisError) -> [FaceDetection] {
        // Without tiling the search is MediaPipe's whole frame, as its parity tests hold it.
        // A box around a smaller, surer face (the person or group around it) has no roll of its own to vote with.
        guard allowTiling, let tilt = PictureTilt.estimate(NestedFaces.removingContainers(found)) else { return found }
        let turned = image.turned(by: -tilt)
        var canvasOptions = options
        canvasOptions.minFaceSize = .pixels(options.minFaceSize.pixels(imageWidth: image.width))
        let growth = TurnedFaceBox.growth(roll: tilt)
        let width = Float(image.width), height = Float(image.height)
        let back = try faces(in: turned.image, composition: composition, options: canvasOptions, allowTiling: allowTiling)
            .map { $0.mapped(by: turned.toSource, growth: growth) }
            .filter { $0.box.centerX >= 0 && $0.box.centerY >= 0 && $0.box.centerX <= width && $0.box.centerY <= height }
        let all = found + back
        return NonMaximumSuppression.greedyKept(all.map(DetectionCandidate.init(pixels:)), overlapThreshold: Self.turnedSearchOverlap)
            .map { all[$0] }
    }
}

extension FaceDetection {
    /// This face, found on a turned canvas, in the picture `canvasToPicture`
    /// maps the canvas onto: keypoints mapped, the box of the same size
    /// times `growth` about the mapped centre.
    func mapped(by canvasToPicture: AffineMap, growth: Float) -> FaceDetection {
        let centre = canvasToPicture.map(Point(x: box.centerX, y: box.centerY))
        let width = box.width * growth, height = box.height * growth
        return FaceDetection(box: Rect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height),
                             score: score, keypoints: keypoints.map(canvasToPicture.map), foundBy: foundBy)
    }
}
