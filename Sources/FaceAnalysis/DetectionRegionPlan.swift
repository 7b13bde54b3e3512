import Foundation
import ImageCore

/// Where `FaceAnalyzer.detect` runs the detector: the letterboxed whole
/// frame, and in `.accurate` mode an image pyramid covered by a few large
/// canvases for faces too small for the whole frame.
///
/// Faces too small for the whole frame are found on an image pyramid by the
/// **short-range** detector (`DetectorFamily.blazeFaceShortRange`): on real faces
/// pasted at known sizes on photo backgrounds it finds 22/24 faces of 28 px
/// at 1:1, as often as the full-range model finds 40-px faces in its 192-px
/// input, at about 0.6× the cost per input pixel (`facepipe model bench`:
/// 1.1 ms for 128×128, 4.0 ms for 192×192).
/// So a level whose pixels are `s` source pixels serves faces of about
/// `28·s` source px and up. The finest level makes a face of
/// `minFaceSize · width` 26 px (`smallestFacePixels`), never finer than the picture (no
/// upsampling, so small images get no canvases); coarser levels shrink by
/// one factor `r ≤ 2` until the whole frame takes over, so each level
/// serves faces from 28 to `28·r` level pixels and no level is wasted.
///
/// The whole frame is letterboxed for the mode's detector when there are
/// no canvases (full range at 192 px in `.accurate` mode: MediaPipe's
/// letterbox). With canvases, the pyramid covers the small faces and the
/// whole frame is there for the large ones, so it runs the short-range
/// model (128 px) under the canvases' score floor: on `make eval` that
/// scored AP 0.950 against 0.939 with full range (0.517 against 0.501 at
/// `minFaceSize` 0.05) with as few false positives at 0.7, found close-ups
/// that fill the frame which the full-range model misses (37 on the bench
/// archive), and costs a quarter as much.

/// Each level is an image of its own: the whole picture downscaled once
/// (area average). Level images are built finest first, each from the
/// previous one, so the full-resolution picture is read once. In canvas
/// mode the whole frame is letterboxed from the coarsest level image (or
/// from a prefilter level of long side `4·inputSize` when there are no
/// canvases); otherwise it reads the picture itself (MediaPipe's exact
/// letterbox).
///
/// The detector is fully convolutional, so a level is not cut into
/// fixed-size tiles: it is covered by **canvases** that span the level's
/// whole height and up to `maximumCanvasWidth` pixels of its width, sized
/// in multiples of `canvasGranularity` (the network's total stride). The
/// detector runs on a canvas a band of rows at a time
/// (`RowStreamingInterpreter`), so its memory follows the canvas width,
/// not its height, and it reads each level pixel about once (1.04× for a
/// 2000-px wide level in two canvases; the 384×384 canvases overlapping on
/// both axes used before read 1.45×). Where a level is wider than one
/// canvas, canvases overlap by at least `canvasOverlap` pixels, more than
/// the largest face the level serves (56 px), so such a face lies wholly
/// inside one canvas; detections within `innerEdgeMargin` of an inner
/// canvas edge are dropped (the cut face is found whole in the neighbour)
/// and the rest are merged across canvases and levels by weighted NMS. A
/// canvas larger than its level (sizes round up to the granularity) is
/// centred on it, black outside the level image.
package struct DetectionRegionPlan: Sendable, Equatable {
    /// An image the detector samples: level 0 is the picture itself, each
    /// later level a smaller area-averaged copy of the one before.
    package struct Level: Sendable, Equatable {
        package var width: Int
        package var height: Int

        package init(width: Int, height: Int) {
            self.width = width; self.height = height
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

    /// A crop of a level image fed to the detector at its own size, 1:1.
    package struct Canvas: Sendable, Equatable {
        /// Top-left corner in pixels of `levels[level]` (negative where a
        /// canvas larger than its level is centred on it).
        package var x: Int
        package var y: Int
        /// Multiples of `canvasGranularity`; the width at most `maximumCanvasWidth`.
        package var width: Int
        package var height: Int
        package var level: Int
        /// Side edges that lie inside the level image (a face cut there is
        /// dropped); top and bottom are always the level's own.
        package var innerLeft = false, innerRight = false

        package init(x: Int, y: Int, width: Int, height: Int, level: Int, innerLeft: Bool = false, innerRight: Bool = false) {
            self.x = x; self.y = y; self.width = width; self.height = height; self.level = level
            self.innerLeft = innerLeft; self.innerRight = innerRight
        }
    }

    /// The face size, in canvas pixels, the canvas detector finds reliably.
    package static let reliableFacePixels: Float = 28
    /// The smallest face, in canvas pixels, the finest level is sized for.
    /// Measured on real faces pasted at known sizes on photo backgrounds
    /// (24 per size): the short-range model at 1:1 found 19/24 at 24 px,
    /// 22/24 at 28 px, 24/24 at 40 px, while the full-range model found
    /// 12/24 at 24 px and 16/24 at 32 px in its 192-px input. 26 rather than
    /// 28: at `minFaceSize` 0.05 `make eval` scored AP 0.501 against 0.492
    /// (recall of faces 5–10 % of the width 53/57 against 52/57); on the
    /// bench archive 26 found 5 faces scoring ≥ 0.7 that 28 missed and missed
    /// 3 (the other differences are 0.6–0.66 rejects), with 11 % fewer
    /// canvas pixels.
    package static let smallestFacePixels: Float = 26
    /// Canvas sides are multiples of this: the canvas detector's total
    /// stride (short range: its deepest map is 8×8 at 128).
    package static let canvasGranularity = DetectorConfiguration.shortRange.totalStride
    /// The widest canvas: the streamed detector's row buffers grow with
    /// the width (16.0 MB at 1056 px in bands of 32 rows; the whole
    /// 384×384 canvas took 13.6 MB before), while neighbouring
    /// canvases overlap by `canvasOverlap`. 1056 px splits pictures up to
    /// 2048 px wide into two canvases.
    package static let maximumCanvasWidth = 1056
    /// Least overlap of neighbouring canvases, in level pixels: above the
    /// largest face a level serves (`2·reliableFacePixels`).
    package static let canvasOverlap = 64
    /// The widest canvas detection kept, in level pixels: a level serves
    /// faces up to `2·reliableFacePixels`; anything much wider is a face the
    /// next coarser level (or the whole frame) sees whole and in context,
    /// while here it is often a partial, off-size box that would drag the
    /// merged box away from the face.
    package static let largestCanvasFacePixels: Float = 3 * reliableFacePixels
    /// The least score of a short-range detection in canvas mode (canvases
    /// and the whole frame; without canvases the whole frame keeps
    /// MediaPipe's 0.5). On the pyramid the short-range model also scores
    /// face-like texture (parts of larger faces, patterns) at 0.5–0.6. On
    /// `make eval` raising the floor to 0.6 for canvases kept every true
    /// positive and dropped about half the false ones.
    package static let canvasMinScore: Float = 0.6
    /// A canvas is run only when one of its `contrastBlock`-pixel blocks has
    /// a grey-level standard deviation of at least this
    /// (`RGBImage.hasBlockContrast`): a face the level serves (20–84 px)
    /// spans such a block with eyes, brows and mouth on skin, while sky,
    /// walls, out-of-focus backgrounds and the black border of a canvas
    /// larger than its level do not. With 384×384 canvases on the bench
    /// archive (`facepipe-probes detector-profile`) no canvas that found a
    /// kept face scored below 13.7, and 8 skipped 8 % of the canvas CPU; a
    /// canvas spanning a level's height now rarely lacks contrast, so it
    /// skips blank pictures and blank columns of wide ones.
    package static let minimumCanvasContrast = 8
    /// The block side of the contrast test, in level pixels.
    package static let contrastBlock = 16
    /// A detection reaching within this many pixels of an inner canvas edge is dropped.
    package static let innerEdgeMargin: Float = 2

    /// `levels[0]` is the source picture; the rest shrink in order.
    package var levels: [Level]
    package var wholeFrame: Region
    /// Canvases of every level, finest level first.
    package var canvases: [Canvas]

    /// - Parameter minFacePixels: the smallest face to search for, in
    ///   picture pixels (the finest level makes it `smallestFacePixels`
    ///   level pixels, or the picture's own pixels when that is finer).
    package init(width: Int, height: Int, inputSize: Int, minFacePixels: Float, tiled: Bool) {
        var levels = [Level(width: width, height: height)]
        var canvases: [Canvas] = []
        let longSide = Float(max(width, height))
        let input = Float(inputSize)
        if tiled {
            for side in Self.tileSides(longSide: longSide, inputSize: input, minFacePixels: max(minFacePixels, 0.001 * Float(width))) {
                let level = Self.level(width: width, height: height, scale: side / input)
                canvases += Self.canvases(width: level.width, height: level.height, level: levels.count)
                levels.append(level)
            }
            // No canvases: still letterbox the whole frame from a small prefilter copy of a large picture.
            if levels.count == 1, longSide > 4 * input {
                levels.append(Self.level(width: width, height: height, scale: longSide / (4 * input)))
            }
        }
        let wholeFrameLevel = levels.count - 1
        let whole = levels[wholeFrameLevel]
        self.levels = levels
        self.wholeFrame = Region(square: .letterbox(width: whole.width, height: whole.height), level: wholeFrameLevel)
        self.canvases = canvases
    }

    /// Input pixels the detector reads for this plan (whole frame included).
    package func detectorPixels(inputSize: Int) -> Int {
        canvases.reduce(inputSize * inputSize) { $0 + $1.width * $1.height }
    }

    /// Level scales as the source pixels one `inputSize` span of the level
    /// covers (the tile side of the former 192-px tiling), finest first: from the side that makes
    /// the smallest face 28 input pixels, growing by a common factor ≤ 2 up
    /// to (excluding) the long side, which the whole frame covers.
    static func tileSides(longSide: Float, inputSize: Float, minFacePixels: Float) -> [Float] {
        let finest = max(minFacePixels * inputSize / smallestFacePixels, inputSize)
        guard finest < longSide * 0.999 else { return [] }
        let span = Double(longSide / finest)
        let count = Int(log2(span).rounded(.up))
        let ratio = pow(span, 1 / Double(count))
        return (0..<count).map { finest * Float(pow(ratio, Double($0))) }
    }

    /// The level image for `scale` source pixels per level pixel.
    static func level(width: Int, height: Int, scale: Float) -> Level {
        Level(width: max(Int((Float(width) / scale).rounded()), 1), height: max(Int((Float(height) / scale).rounded()), 1))
    }

    /// Canvas spans across `extent` level pixels of width: (origin, size).
    /// One centred canvas when the extent fits, else the fewest canvases of
    /// one common size overlapping by at least `canvasOverlap`, placed
    /// mirror-symmetrically (a mirrored picture gets mirrored canvases).
    package static func canvasSpans(extent: Int) -> [(origin: Int, size: Int)] {
        let g = canvasGranularity, maximum = maximumCanvasWidth, overlap = canvasOverlap
        let fitted = (max(extent, 1) + g - 1) / g * g
        guard fitted > maximum else { return [(-(fitted - extent) / 2, fitted)] }
        let count = (extent - overlap + (maximum - overlap) - 1) / (maximum - overlap)
        let share = (extent + (count - 1) * overlap + count - 1) / count
        let size = min((share + g - 1) / g * g, maximum)
        let room = extent - size
        return (0..<count).map { i in
            let fromStart = min(i, count - 1 - i)
            let offset = room * fromStart / (count - 1)
            return (i == fromStart ? offset : room - offset, size)
        }
    }

    /// The canvases of a level: its whole height, in columns of `canvasSpans`.
    static func canvases(width: Int, height: Int, level: Int) -> [Canvas] {
        let g = canvasGranularity
        let fittedHeight = (max(height, 1) + g - 1) / g * g
        let y = -(fittedHeight - height) / 2
        return canvasSpans(extent: width).map { column in
            Canvas(x: column.origin, y: y, width: column.size, height: fittedHeight, level: level,
                   innerLeft: column.origin > 0, innerRight: column.origin + column.size < width)
        }
    }

    /// Maps a detection normalized to `region` into source pixels.
    package func toImage(_ detection: NormalizedDetection, of region: Region) -> FaceDetection {
        let inLevel = region.square.toImage(detection)
        guard region.level > 0 else { return inLevel }
        let level = levels[region.level], source = levels[0]
        let sx = Float(source.width) / Float(level.width), sy = Float(source.height) / Float(level.height)
        return FaceDetection(
            box: Rect(x: inLevel.box.x * sx, y: inLevel.box.y * sy, width: inLevel.box.width * sx, height: inLevel.box.height * sy),
            score: inLevel.score,
            keypoints: inLevel.keypoints.map { Point(x: $0.x * sx, y: $0.y * sy) })
    }

    /// Maps a detection in pixels of `canvas` into source pixels.
    package func toImage(_ detection: NormalizedDetection, of canvas: Canvas) -> FaceDetection {
        let level = levels[canvas.level], source = levels[0]
        let sx = Float(source.width) / Float(level.width), sy = Float(source.height) / Float(level.height)
        let ox = Float(canvas.x), oy = Float(canvas.y)
        let c = detection.coordinates
        return FaceDetection(
            box: Rect(x: (c[0] + ox) * sx, y: (c[1] + oy) * sy, width: (c[2] - c[0]) * sx, height: (c[3] - c[1]) * sy),
            score: detection.score,
            keypoints: (0..<6).map { k in Point(x: (c[4 + 2 * k] + ox) * sx, y: (c[5 + 2 * k] + oy) * sy) })
    }

    /// Whether a detection box (in canvas pixels) reaches within
    /// `innerEdgeMargin` of an inner edge of the canvas.
    package static func touchesInnerEdge(_ detection: NormalizedDetection, of canvas: Canvas) -> Bool {
        let margin = innerEdgeMargin
        return (canvas.innerLeft && detection.xmin < margin) || (canvas.innerRight && detection.xmax > Float(canvas.width) - margin)
    }
}
