import ImageCore

extension FaceAnalyzer {
    /// Finds faces in `image` (already upright).
    ///
    /// `.accurate`: YuNet-s over a `YuNetSearchPlan`, BlazeFace around its
    /// candidates and on the whole frame (`BlazeFaceConfirmation`; with
    /// `UnconfirmedFaces.all` also its pyramid over every pixel), merged by
    /// `DetectorFusion`. `.yunet`: YuNet-s over a `YuNetSearchPlan`.
    /// BlazeFace modes: letterbox → detector → anchor decoding → weighted
    /// NMS (IoU 0.3) → image pixels; in `.pyramid` mode on large images also
    /// canvases over an image pyramid (`DetectionRegionPlan`), merged across
    /// regions, and BlazeFace's boxes reported as `TurnedFaceBox` makes them
    /// (larger for a face turned in-plane). Faces whose box's longer side is
    /// under `minFaceSize` (in pixels for this image) or scoring below
    /// `minScore` are dropped. Sorted by score (highest first), ties by
    /// position, so the order is deterministic. An empty image gives no faces.
    public func detect(in image: RGBImage, options: FaceDetectionOptions = FaceDetectionOptions()) throws(FaceAnalysisError) -> [FaceDetection] {
        try detect(in: image, options: options, allowTiling: true)
    }

    /// `detect` with canvases optional (`false`: the whole frame only, as
    /// MediaPipe runs it; used by the parity tests and benchmarks).
    package func detect(in image: RGBImage, options: FaceDetectionOptions, allowTiling: Bool) throws(FaceAnalysisError) -> [FaceDetection] {
        try detect(in: image, composition: options.composition, options: options, allowTiling: allowTiling)
    }

    /// `detect` running `composition` (any families, ``DetectorMode``'s or
    /// others); `options.mode` and `options.unconfirmed` are not read. A
    /// picture whose faces show it tilted is searched again turned upright
    /// (`addingTurnedFaces`).
    package func detect(in image: RGBImage, composition: DetectorComposition, options: FaceDetectionOptions,
                        allowTiling: Bool = true) throws(FaceAnalysisError) -> [FaceDetection] {
        try options.validate()
        try composition.validate()
        guard image.width > 0, image.height > 0 else { return [] }
        var found = try faces(in: image, composition: composition, options: options, allowTiling: allowTiling)
        found = try addingTurnedFaces(to: found, in: image, composition: composition, options: options, allowTiling: allowTiling)
        let minSize = options.minFaceSize.pixels(imageWidth: image.width)
        return found
            .filter { $0.box.longerSide >= minSize && $0.isFinite }
            .sorted { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.box.x != b.box.x { return a.box.x < b.box.x }
                return a.box.y < b.box.y
            }
    }

    /// The faces one search of `image` by `composition` finds, neither
    /// filtered by size nor sorted.
    func faces(in image: RGBImage, composition: DetectorComposition, options: FaceDetectionOptions,
               allowTiling: Bool) throws(FaceAnalysisError) -> [FaceDetection] {
        let minScore = max(options.minScore, DetectionDecoder.defaultMinScore)
        let found: [FaceDetection]
        if let confirmation = composition.confirmation, case let .tiledLevels(searching) = composition.search {
            let (candidates, levels) = try searchTiles(with: searching, in: image, options: options,
                                                       minimumScore: BlazeFaceConfirmation.candidateMinScore)
            var confirming = try confirm(candidates, with: confirmation.family, in: image, levels: levels)
            if let recall = confirmation.recall {
                // Recall first (redaction): the confirming side also searches every pixel, for the faces the searching family does not see at all.
                confirming = Self.mergeAcrossRegions(confirming + (try search(recall, in: image, options: options, allowTiling: allowTiling)))
            }
            found = DetectorFusion.merge(yunet: candidates, blazeFace: confirming,
                                         unconfirmed: confirmation.unconfirmed).filter { $0.score >= minScore }
        } else if case let .tiledLevels(family) = composition.search {
            found = try searchTiles(with: family, in: image, options: options, minimumScore: minScore).faces
        } else {
            found = try search(composition.search, in: image, options: options, allowTiling: allowTiling)
        }
        return found
    }

    /// An anchor family's faces over a whole-frame or canvas-pyramid
    /// search (`.fast`, `.pyramid`, `.sparse` modes), unsorted, with
    /// `TurnedFaceBox`'s boxes and scores of at least `minScore`.
    func search(_ search: DetectorComposition.Search, in image: RGBImage, options: FaceDetectionOptions,
                allowTiling: Bool) throws(FaceAnalysisError) -> [FaceDetection] {
        let sizing: DetectorFamily, canvasFamily: DetectorFamily?
        switch search {
        case let .wholeFrame(family): (sizing, canvasFamily) = (family, nil)
        case let .canvasPyramid(canvases, smallPictures): (sizing, canvasFamily) = (smallPictures, canvases)
        case .tiledLevels: throw .invalidOption("a tiled search has no whole frame")
        }
        let (runner, decoder) = try wholeFrameDetector(sizing)
        let inputSize = decoder.configuration.inputSize
        let plan = DetectionRegionPlan(width: image.width, height: image.height, inputSize: inputSize,
                                       minFacePixels: options.minFaceSize.pixels(imageWidth: image.width), tiled: allowTiling && canvasFamily != nil)
        let minScore = max(options.minScore, DetectionDecoder.defaultMinScore)
        // With a pyramid, the whole frame runs the canvases' model
        // (large faces; the levels cover the small ones) under the canvas score floor.
        var (frameRunner, frameDecoder) = (runner, decoder)
        if let canvasFamily, !plan.canvases.isEmpty { (frameRunner, frameDecoder) = try wholeFrameDetector(canvasFamily) }
        let frameMinScore = plan.canvases.isEmpty ? minScore : max(minScore, DetectionRegionPlan.canvasMinScore)
        // Level by level, finest first, each level image made from the one before:
        // only the current level image and its parent are alive at a time.
        var found: [FaceDetection] = []
        var levelImage = image
        let observer = searchObserver
        observer?.began(plan)
        for (levelIndex, level) in plan.levels.enumerated() {
            if levelIndex > 0 {
                do {
                    levelImage = try levelImage.downscaledAreaAverage(width: level.width, height: level.height)
                } catch {
                    // Not a model's failure: the level's size is past ImageCore's limits.
                    throw .imageUnsearchable(width: image.width, height: image.height,
                                             reason: "its \(level.width)×\(level.height) detection level: \(error)")
                }
                observer?.madeLevelImage()
            }
            for canvas in plan.canvases where canvas.level == levelIndex {
                guard levelImage.hasBlockContrast(x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height,
                                                  block: DetectionRegionPlan.contrastBlock, deviation: DetectionRegionPlan.minimumCanvasContrast) else {
                    observer?.ranCanvas(canvas, kept: [], skipped: true)
                    continue
                }
                var lowScores: (floor: Float, receive: (Int, NormalizedDetection) -> Void)?
                if let observer, let floor = observer.lowScoreFloor {
                    lowScores = (floor, { stride, detection in
                        observer.lowScore(level: canvas.level, stride: stride, detection: plan.toImage(detection, of: canvas))
                    })
                }
                let decoded = try canvasDetector(canvasFamily ?? sizing, options.canvasArithmetic).detect(in: levelImage, canvas: canvas,
                                                          minScore: max(minScore, DetectionRegionPlan.canvasMinScore), lowScores: lowScores)
                let kept = NonMaximumSuppression.weighted(decoded).filter { detection in
                    !DetectionRegionPlan.touchesInnerEdge(detection, of: canvas)
                        && detection.xmax - detection.xmin <= DetectionRegionPlan.largestCanvasFacePixels
                }.map { plan.toImage($0, of: canvas) }
                found += kept
                observer?.ranCanvas(canvas, kept: kept, skipped: false)
            }
            if plan.wholeFrame.level == levelIndex {
                let region = plan.wholeFrame
                for detection in try Self.detect(in: levelImage, square: region.square, runner: frameRunner, decoder: frameDecoder,
                                                 minScore: frameMinScore) {
                    found.append(plan.toImage(detection, of: region))
                }
                observer?.ranWholeFrame()
            }
        }
        if !plan.canvases.isEmpty { found = Self.mergeAcrossRegions(found) }
        return found.map { face in
            FaceDetection(box: TurnedFaceBox.box(face.box, keypoints: face.keypoints), score: face.score, keypoints: face.keypoints)
        }
    }

    /// A whole-input BlazeFace model (`runner`, `decoder`) on `square` of
    /// `picture` (resampled to its input, black outside the picture):
    /// detections from `minScore` after weighted NMS, normalised to the square.
    static func detect(in picture: RGBImage, square: SquareRegion, runner: ModelRunner, decoder: DetectionDecoder,
                       minScore: Float) throws(FaceAnalysisError) -> [NormalizedDetection] {
        try runner.run { input in
            TensorSampler.resize(picture, region: square, size: decoder.configuration.inputSize,
                                 valueScale: 2 / 255, valueOffset: -1, into: input)
        }
        let anchors = decoder.anchors.count
        let decoded = try runner.output(count: anchors * 16) { regressors throws(FaceAnalysisError) in
            try runner.output(count: anchors) { scores throws(FaceAnalysisError) in
                try decoder.decode(regressors: regressors, classificators: scores, minScore: minScore)
            }
        }
        return NonMaximumSuppression.weighted(decoded)
    }

    /// Weighted NMS over detections from several regions, in pixels.
    static func mergeAcrossRegions(_ faces: [FaceDetection]) -> [FaceDetection] {
        NonMaximumSuppression.weighted(faces.map(NormalizedDetection.init(pixels:))).map(SquareRegion(x: 0, y: 0, side: 1).toImage)
    }
}

extension FaceDetection {
    var isFinite: Bool {
        [box.x, box.y, box.width, box.height, score].allSatisfy(\.isFinite) && keypoints.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }
}
