import ImageCore

extension FaceAnalyzer {
    /// Finds faces in `image` (already upright).
    ///
    /// `.accurate`: YuNet-s over its `PyramidSearch`, BlazeFace around its
    /// candidates and on the whole frame (`BlazeFaceConfirmation`; with
    /// `UnconfirmedFaces.all` also its pyramid over every pixel), merged by
    /// `DetectorFusion`. `.yunet`: YuNet-s over its `PyramidSearch`.
    /// BlazeFace modes: letterbox → detector → anchor decoding → weighted
    /// NMS (IoU 0.3) → image pixels; in `.pyramid` mode on large images also
    /// tiles over an image pyramid (the short-range family's `PyramidSearch`), merged across
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
    /// (`addingTurnedFaces`). Where the composition keeps only faces each
    /// detector scores high (``UnconfirmedFaces/scored``), a box around a
    /// smaller, surer face is dropped (``NestedFaces``).
    package func detect(in image: RGBImage, composition: DetectorComposition, options: FaceDetectionOptions,
                        allowTiling: Bool = true) throws(FaceAnalysisError) -> [FaceDetection] {
        try options.validate()
        try composition.validate()
        guard image.width > 0, image.height > 0 else { return [] }
        var found = try faces(in: image, composition: composition, options: options, allowTiling: allowTiling)
        found = try addingTurnedFaces(to: found, in: image, composition: composition, options: options, allowTiling: allowTiling)
        if composition.confirmation?.unconfirmed == .scored { found = NestedFaces.removingContainers(found) }
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
                // Recall first (redaction): the confirming side also searches every pixel, for the faces the searching family does
                // not see at all; its canvas faces under the canvases' floor count where the searching family re-reads them (`RecallReread`).
                confirming = Self.mergeAcrossRegions(confirming + (try search(recall, in: image, options: options, allowTiling: allowTiling,
                                                                              rereadingLowFacesWith: searching)))
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
    /// `TurnedFaceBox`'s boxes and scores of at least `minScore`. With
    /// `rereader` (`RecallReread`), the canvases also keep faces from
    /// `minScore` under their own floor that `rereader` finds again.
    func search(_ search: DetectorComposition.Search, in image: RGBImage, options: FaceDetectionOptions,
                allowTiling: Bool, rereadingLowFacesWith rereader: DetectorFamily? = nil) throws(FaceAnalysisError) -> [FaceDetection] {
        let sizing: DetectorFamily, canvasFamily: DetectorFamily?
        switch search {
        case let .wholeFrame(family): (sizing, canvasFamily) = (family, nil)
        case let .canvasPyramid(canvases, smallPictures): (sizing, canvasFamily) = (smallPictures, canvases)
        case .tiledLevels: throw .invalidOption("a tiled search has no whole frame")
        }
        let (runner, decoder) = try wholeFrameDetector(sizing)
        let inputSize = decoder.configuration.inputSize
        let minFacePixels = options.minFaceSize.pixels(imageWidth: image.width)
        let pyramid = allowTiling ? canvasFamily?.pyramid : nil
        let plan = pyramid.map { SearchPlan($0, width: image.width, height: image.height, minFacePixels: minFacePixels, wholeFrameInput: inputSize) }
            ?? SearchPlan(wholeFrameOf: image.width, image.height, input: inputSize)
        let minScore = max(options.minScore, DetectionDecoder.defaultMinScore)
        // With tiles, the whole frame runs the tiles' model (large faces;
        // the levels cover the small ones) under the tiles' score floor.
        var (frameRunner, frameDecoder) = (runner, decoder)
        var tileMinScore = minScore
        if let canvasFamily, let pyramid, !plan.tiles.isEmpty {
            (frameRunner, frameDecoder) = try wholeFrameDetector(canvasFamily)
            tileMinScore = max(minScore, pyramid.minimumScore ?? minScore)
        }
        let frameMinScore = tileMinScore
        var found: [FaceDetection] = []
        let observer = searchObserver
        observer?.began(plan)
        try plan.forEachLevel(of: image) { (levelIndex, levelImage) throws(FaceAnalysisError) in
            if levelIndex > 0 { observer?.madeLevelImage() }
            for tile in plan.tiles where tile.level == levelIndex {
                guard let pyramid, let canvasFamily else { break }
                if let contrast = pyramid.contrast,
                   !levelImage.hasBlockContrast(x: tile.x, y: tile.y, width: tile.width, height: tile.height,
                                                block: contrast.block, deviation: contrast.deviation) {
                    observer?.ranCanvas(tile, kept: [], skipped: true)
                    continue
                }
                var lowScores: (floor: Float, receive: (Int, DetectionCandidate) -> Void)?
                if let observer, let floor = observer.lowScoreFloor {
                    lowScores = (floor, { stride, detection in
                        observer.lowScore(level: tile.level, stride: stride, detection: plan.toImage(detection, of: tile))
                    })
                }
                // With a re-reader, decoded from the run's floor; the faces from the canvases' own floor are suppressed among
                // themselves as without one, and the clusters of lower ones alone are re-read.
                let decodeFloor = rereader == nil ? tileMinScore : min(minScore, tileMinScore)
                let decoded = try canvasDetector(canvasFamily, options.canvasArithmetic).detect(in: levelImage, canvas: tile,
                                                                                              minScore: decodeFloor, lowScores: lowScores)
                func onTile(_ detections: [DetectionCandidate]) -> [FaceDetection] {
                    detections.filter { detection in
                        !tile.touchesInnerEdge(minX: detection.xmin, maxX: detection.xmax, margin: pyramid.innerEdgeMargin)
                            && pyramid.keeps(width: detection.xmax - detection.xmin, finest: tile.level == 1)
                    }.map { plan.toImage($0, of: tile) }
                }
                let kept = onTile(NonMaximumSuppression.weighted(decodeFloor < tileMinScore ? decoded.filter { $0.score >= tileMinScore } : decoded))
                found += kept
                if let rereader, decodeFloor < tileMinScore {
                    let low = onTile(NonMaximumSuppression.weighted(decoded).filter { $0.score < tileMinScore })
                    found += try reread(low, with: rereader, in: image, options: options)
                }
                observer?.ranCanvas(tile, kept: kept, skipped: false)
            }
            if let region = plan.wholeFrame, region.level == levelIndex {
                for detection in try Self.detect(in: levelImage, square: region.square, runner: frameRunner, decoder: frameDecoder,
                                                 minScore: frameMinScore) {
                    found.append(plan.toImage(detection, of: region))
                }
                observer?.ranWholeFrame()
            }
        }
        if !plan.tiles.isEmpty { found = Self.mergeAcrossRegions(found) }
        return found.map { face in
            FaceDetection(box: TurnedFaceBox.box(face.box, keypoints: face.keypoints), score: face.score, keypoints: face.keypoints)
        }
    }

    /// A whole-input BlazeFace model (`runner`, `decoder`) on `square` of
    /// `picture` (resampled to its input, black outside the picture):
    /// detections from `minScore` after weighted NMS, normalised to the square.
    static func detect(in picture: RGBImage, square: SquareRegion, runner: ModelRunner, decoder: DetectionDecoder,
                       minScore: Float) throws(FaceAnalysisError) -> [DetectionCandidate] {
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

    /// Weighted NMS over detections from several regions, in pixels. For
    /// BlazeFace's faces only: the result is marked as BlazeFace's whatever
    /// `foundBy` the faces had (a `DetectionCandidate` does not carry it), so
    /// a YuNet-s face merged here would be sent to Face Mesh's second opinion.
    static func mergeAcrossRegions(_ faces: [FaceDetection]) -> [FaceDetection] {
        NonMaximumSuppression.weighted(faces.map(DetectionCandidate.init(pixels:))).map(SquareRegion(x: 0, y: 0, side: 1).toImage)
    }
}

extension FaceDetection {
    var isFinite: Bool {
        [box.x, box.y, box.width, box.height, score].allSatisfy(\.isFinite) && keypoints.allSatisfy { $0.x.isFinite && $0.y.isFinite }
    }
}
