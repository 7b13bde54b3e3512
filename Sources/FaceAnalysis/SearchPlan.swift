import ImageCore

/// Where a ``PyramidSearch`` runs the detector on one picture: its levels
/// (level 0 the picture itself, each later one a smaller area-averaged
/// copy), the tiles of each searched level, and for a search that ends in
/// the whole frame, the letterboxed square the whole frame reads.
/// ``forEachLevel(of:_:)`` makes the level images in order.
package struct SearchPlan: Sendable, Equatable {
    /// An image the detector samples.
    package struct Level: Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// Picture pixels per level pixel (as asked: the level's size is rounded).
        package var scale: Float

        package init(width: Int, height: Int, scale: Float = 1) {
            self.width = width; self.height = height; self.scale = scale
        }

        /// The level `scale` times smaller than a `pictureWidth × pictureHeight` picture.
        init(pictureWidth: Int, pictureHeight: Int, scale: Float) {
            self.init(width: max(Int((Float(pictureWidth) / scale).rounded()), 1),
                      height: max(Int((Float(pictureHeight) / scale).rounded()), 1), scale: scale)
        }
    }

    /// A crop of a level image the detector reads at its own size, 1:1.
    package struct Tile: Sendable, Equatable {
        /// Top-left corner in pixels of `levels[level]` (negative where a
        /// tile larger than its level is centred on it).
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
        package var level: Int
        /// Side edges that another tile covers beyond (a face cut there is
        /// dropped); top and bottom are always the level's own.
        package var innerLeft = false, innerRight = false

        package init(x: Int, y: Int, width: Int, height: Int, level: Int, innerLeft: Bool = false, innerRight: Bool = false) {
            self.x = x; self.y = y; self.width = width; self.height = height; self.level = level
            self.innerLeft = innerLeft; self.innerRight = innerRight
        }

        /// Whether a box from `minX` to `maxX` (tile pixels) comes within
        /// `margin` of an inner edge.
        package func touchesInnerEdge(minX: Float, maxX: Float, margin: Float) -> Bool {
            (innerLeft && minX < margin) || (innerRight && maxX > Float(width) - margin)
        }
    }

    /// The letterboxed whole frame: a square the detector input covers.
    package struct Region: Sendable, Equatable {
        /// The square the detector input covers, in pixels of `levels[level]`.
        package var square: SquareRegion
        package var level: Int

        package init(square: SquareRegion, level: Int) {
            self.square = square; self.level = level
        }
    }

    /// `levels[0]` is the picture; the rest shrink in order.
    package var levels: [Level]
    /// Tiles of every searched level, finest level first.
    package var tiles: [Tile]
    /// The whole frame, for a `.evenToWholeFrame` search or none.
    package var wholeFrame: Region?

    /// The plan of `search` for a `width × height` picture whose smallest
    /// face asked for is `minFacePixels` wide (picture pixels);
    /// `wholeFrameInput` is the input side of the whole frame's detector.
    package init(_ search: PyramidSearch, width: Int, height: Int, minFacePixels: Float, wholeFrameInput: Int = 0) {
        var levels = [Level(width: width, height: height)]
        var tiles: [Tile] = []
        for scale in search.scales(width: width, height: height, minFacePixels: minFacePixels, wholeFrameInput: wholeFrameInput) {
            let level = Level(pictureWidth: width, pictureHeight: height, scale: scale)
            let row = search.rows(level.height), columns = search.spans(level.width)
            for (index, column) in columns.enumerated() {
                tiles.append(Tile(x: column.start, y: row.start, width: column.length, height: row.length, level: levels.count,
                                  innerLeft: index > 0, innerRight: index < columns.count - 1))
            }
            levels.append(level)
        }
        self.init(levels: levels, tiles: tiles, wholeFrameInput: search.levels == .evenToWholeFrame ? wholeFrameInput : nil,
                  prefilter: true)
    }

    /// The whole frame alone (no tiles), letterboxed for a detector of
    /// input side `input`.
    package init(wholeFrameOf width: Int, _ height: Int, input: Int) {
        self.init(levels: [Level(width: width, height: height)], tiles: [], wholeFrameInput: input, prefilter: false)
    }

    /// With `wholeFrameInput`, the whole frame from the last of `levels`,
    /// or with only the picture and `prefilter`, from a small prefilter
    /// copy of a picture larger than 4 × `wholeFrameInput` (without, the
    /// picture itself: MediaPipe's exact letterbox).
    private init(levels: [Level], tiles: [Tile], wholeFrameInput: Int?, prefilter: Bool) {
        var levels = levels
        self.tiles = tiles
        self.wholeFrame = nil
        if let wholeFrameInput {
            let picture = levels[0], input = Float(wholeFrameInput)
            let longSide = Float(max(picture.width, picture.height))
            if prefilter, levels.count == 1, longSide > 4 * input {
                levels.append(Level(pictureWidth: picture.width, pictureHeight: picture.height, scale: longSide / (4 * input)))
            }
            let last = levels.count - 1
            self.wholeFrame = Region(square: .letterbox(width: levels[last].width, height: levels[last].height), level: last)
        }
        self.levels = levels
    }

    /// Input pixels the detector reads for this plan (a whole frame of
    /// `inputSize` included when there is one).
    package func detectorPixels(inputSize: Int) -> Int {
        tiles.reduce(wholeFrame == nil ? 0 : inputSize * inputSize) { $0 + $1.width * $1.height }
    }

    /// Calls `body` with each level's index and image, the picture first,
    /// each later level area-averaged from the one before, so the picture
    /// is read once and only a level image and its parent are alive at a
    /// time.
    package func forEachLevel(of image: RGBImage, _ body: (Int, RGBImage) throws(FaceAnalysisError) -> Void) throws(FaceAnalysisError) {
        var levelImage = image
        for (index, level) in levels.enumerated() {
            if index > 0 {
                do {
                    levelImage = try levelImage.downscaledAreaAverage(width: level.width, height: level.height)
                } catch {
                    // Not a model's failure: the level's size is past ImageCore's limits.
                    throw .imageUnsearchable(width: image.width, height: image.height,
                                             reason: "its \(level.width)×\(level.height) detection level: \(error)")
                }
            }
            try body(index, levelImage)
        }
    }

    /// Maps a detection normalized to `region` into picture pixels.
    package func toImage(_ detection: DetectionCandidate, of region: Region) -> FaceDetection {
        let inLevel = region.square.toImage(detection)
        guard region.level > 0 else { return inLevel }
        let (sx, sy) = pictureScale(of: region.level)
        return FaceDetection(
            box: Rect(x: inLevel.box.x * sx, y: inLevel.box.y * sy, width: inLevel.box.width * sx, height: inLevel.box.height * sy),
            score: inLevel.score,
            keypoints: inLevel.keypoints.map { Point(x: $0.x * sx, y: $0.y * sy) })
    }

    /// Maps a detection in pixels of `tile` into picture pixels.
    package func toImage(_ detection: DetectionCandidate, of tile: Tile) -> FaceDetection {
        let (sx, sy) = pictureScale(of: tile.level)
        let ox = Float(tile.x), oy = Float(tile.y)
        let c = detection.coordinates
        return FaceDetection(
            box: Rect(x: (c[0] + ox) * sx, y: (c[1] + oy) * sy, width: (c[2] - c[0]) * sx, height: (c[3] - c[1]) * sy),
            score: detection.score,
            keypoints: (0..<6).map { k in Point(x: (c[4 + 2 * k] + ox) * sx, y: (c[5 + 2 * k] + oy) * sy) })
    }

    /// Picture pixels per pixel of `levels[level]` along each axis, from the sizes.
    private func pictureScale(of level: Int) -> (Float, Float) {
        (Float(levels[0].width) / Float(levels[level].width), Float(levels[0].height) / Float(levels[level].height))
    }
}
