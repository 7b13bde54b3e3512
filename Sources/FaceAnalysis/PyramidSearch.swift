import Foundation

/// How a detector family that reads pictures of any size covers one: the
/// levels of an image pyramid (the picture and smaller area-averaged
/// copies), each searched in tiles that span the level's whole height, up
/// to `maximumTile` pixels wide, neighbours overlapping by at least
/// `overlap` pixels, sized or placed on the network's `alignment`.
/// A detection within `innerEdgeMargin` of a tile edge that another tile
/// covers is dropped (the neighbour holds the face whole). A family
/// declares its search in its row (``DetectorFamily/pyramid``);
/// ``SearchPlan`` lays it out for one picture, with the level loop written
/// once, and `FaceAnalyzer` runs every plan level by level the same way.
///
/// The detectors stream rows (`RowStreamingInterpreter`), so their memory
/// follows a tile's width, not its height, and a level is read about once.
package struct PyramidSearch: Sendable, Hashable {
    /// Which levels a picture gets, finest first.
    package enum Levels: Sendable, Hashable {
        /// From the finest, each `factor` times smaller than the one
        /// before, until one fits `coarsestSide` on both sides (that one
        /// searched too).
        case byFactor(Int, coarsestSide: Int)
        /// From the finest, evenly spaced by one factor of at most 2, up to
        /// (excluding) the level on which the picture's long side is the
        /// whole frame's input; the whole frame, letterboxed from the
        /// coarsest level (or, with no level, from a prefilter copy of long
        /// side 4 × the input), covers the larger faces.
        case evenToWholeFrame
    }

    /// Where a level's tiles lie.
    package enum Placement: Sendable, Hashable {
        /// Each tile starts on a multiple of `alignment`, the last ends at
        /// the level's edge, one padded width for all (one plan per level):
        /// every tile samples the level on the grid of one pass over it.
        case onTheLevelGrid
        /// Tiles of one common size, a multiple of `alignment` on both
        /// axes, placed mirror-symmetrically (a mirrored picture gets
        /// mirrored tiles); a tile larger than its level is centred on it,
        /// black outside.
        case mirrored
    }

    /// The smallest face, in level pixels, the finest level is sized for.
    package var smallestFace: Float
    package var levels: Levels
    package var placement: Placement
    /// The widest tile, in level pixels.
    package var maximumTile: Int
    /// The network's total stride: tile origins or sizes are multiples of it.
    package var alignment: Int
    /// Least overlap of neighbouring tiles, in level pixels.
    package var overlap: Int
    /// A detection reaching within this many pixels of an inner tile edge is dropped.
    package var innerEdgeMargin: Float
    /// Levels after the finest keep only faces at least this wide (level
    /// pixels; the finest, boxes of width 0 and up): smaller ones are the
    /// finer levels'.
    package var coarseLevelSmallestFace: Float?
    /// Faces wider than this (level pixels) are dropped on every level:
    /// the next coarser level (or the whole frame) sees them whole.
    package var largestFace: Float?
    /// The least score kept on the levels (nil: the caller's).
    package var minimumScore: Float?
    /// A tile runs only when one of its `block`-pixel blocks has a
    /// grey-level standard deviation of at least `deviation`
    /// (`RGBImage.hasBlockContrast`).
    package struct Contrast: Sendable, Hashable {
        package var block: Int
        package var deviation: Int
    }
    /// The contrast a tile needs to be run (nil: every tile runs).
    package var contrast: Contrast?

    package init(smallestFace: Float, levels: Levels, placement: Placement, maximumTile: Int, alignment: Int, overlap: Int,
                 innerEdgeMargin: Float, coarseLevelSmallestFace: Float? = nil, largestFace: Float? = nil,
                 minimumScore: Float? = nil, contrast: Contrast? = nil) {
        self.smallestFace = smallestFace
        self.levels = levels
        self.placement = placement
        self.maximumTile = maximumTile
        self.alignment = alignment
        self.overlap = overlap
        self.innerEdgeMargin = innerEdgeMargin
        self.coarseLevelSmallestFace = coarseLevelSmallestFace
        self.largestFace = largestFace
        self.minimumScore = minimumScore
        self.contrast = contrast
    }

    /// Whether a detection `width` level pixels wide is kept on a level
    /// (`finest`: the first searched).
    package func keeps(width: Float, finest: Bool) -> Bool {
        if let largestFace, !(width <= largestFace) { return false }
        if let coarseLevelSmallestFace, !(width >= (finest ? 0 : coarseLevelSmallestFace)) { return false }
        return true
    }

    /// The searched levels' scales (picture pixels per level pixel), finest
    /// first, for a `width × height` picture whose smallest face asked for
    /// is `minFacePixels` wide; `wholeFrameInput` is the whole frame's input
    /// side (`.evenToWholeFrame`).
    func scales(width: Int, height: Int, minFacePixels: Float, wholeFrameInput: Int) -> [Float] {
        switch levels {
        case let .byFactor(factor, coarsestSide):
            var scale = max(1, minFacePixels / smallestFace)
            var scales: [Float] = []
            while true {
                scales.append(scale)
                let level = SearchPlan.Level(pictureWidth: width, pictureHeight: height, scale: scale)
                if level.width <= coarsestSide && level.height <= coarsestSide { return scales }
                scale *= Float(factor)
            }
        case .evenToWholeFrame:
            // The side, in picture pixels, one whole-frame input span of each level covers.
            let input = Float(wholeFrameInput), longSide = Float(max(width, height))
            let finest = max(max(minFacePixels, 0.001 * Float(width)) * input / smallestFace, input)
            guard finest < longSide * 0.999 else { return [] }
            let span = Double(longSide / finest)
            let count = Int(log2(span).rounded(.up))
            let ratio = pow(span, 1 / Double(count))
            return (0..<count).map { finest * Float(pow(ratio, Double($0))) / input }
        }
    }

    /// Tile spans across `extent` level pixels: (origin, size), covering
    /// the extent with neighbours overlapping by at least `overlap`.
    package func spans(_ extent: Int) -> [(start: Int, length: Int)] {
        let a = alignment
        func roundedUp(_ value: Int) -> Int { (value + a - 1) / a * a }
        switch placement {
        case .mirrored:
            // One centred tile when the extent fits, else the fewest of one common size.
            let fitted = roundedUp(max(extent, 1))
            guard fitted > maximumTile else { return [(-(fitted - extent) / 2, fitted)] }
            let count = (extent - overlap + (maximumTile - overlap) - 1) / (maximumTile - overlap)
            let share = (extent + (count - 1) * overlap + count - 1) / count
            let size = min(roundedUp(share), maximumTile)
            let room = extent - size
            return (0..<count).map { i in
                let fromStart = min(i, count - 1 - i)
                let offset = room * fromStart / (count - 1)
                return (i == fromStart ? offset : room - offset, size)
            }
        case .onTheLevelGrid:
            guard extent > maximumTile else { return [(0, extent)] }
            var count = (extent - overlap + (maximumTile - overlap) - 1) / (maximumTile - overlap)
            while true {
                // The padded width: the smallest that lets `count` aligned spans cover with the overlap.
                var width = roundedUp((extent + (count - 1) * overlap + count - 1) / count)
                while width <= maximumTile {
                    // The last span ends at `extent` and pads up to `width`; the others are `width` long.
                    let last = roundedUp(extent - width)
                    let step = roundedUp((last + count - 2) / (count - 1))
                    let starts = (0..<count).map { $0 == count - 1 ? last : $0 * step }
                    if zip(starts, starts.dropFirst()).allSatisfy({ $1 > $0 && $0 + width - $1 >= overlap }) {
                        return starts.map { (start: $0, length: min(width, extent - $0)) }
                    }
                    width += a
                }
                count += 1
            }
        }
    }

    /// The vertical span of a level's tiles: its whole height, padded to
    /// the alignment and centred for `.mirrored`.
    func rows(_ height: Int) -> (start: Int, length: Int) {
        guard placement == .mirrored else { return (0, height) }
        let fitted = (max(height, 1) + alignment - 1) / alignment * alignment
        return (-(fitted - height) / 2, fitted)
    }
}
