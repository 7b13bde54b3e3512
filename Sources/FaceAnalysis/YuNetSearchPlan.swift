import ImageCore
import Inference

/// Where `DetectorMode.yunet` runs YuNet-s on a picture.
///
/// YuNet's stride-8 heads find faces from about 10 px, so the **finest
/// level** is the picture itself when `minFaceSize` is under
/// `finestFacePixels` (otherwise a copy shrunk so that the smallest face
/// asked for is that wide there). Each later level is a copy `levelFactor`
/// times smaller (area average), for faces too large for the one before,
/// until a level fits `coarsestLevelSide` on both sides. The detector
/// streams rows, so its memory follows a level's width, not its height: a
/// level is searched in tiles that span its whole height, one up to
/// `maximumTile` pixels wide (a 12 MP photo, 4032 px wide, in two), a wider
/// level in tiles of one width (one plan per level) overlapping by at
/// least `overlap` pixels, each starting on a multiple of the network's
/// 32-px alignment. YuNet-s's score for a small face moves with the
/// sampling grid (a 39-px face of the composite set scored 0.32 to 0.67
/// as its crop was shifted pixel by pixel), so tiles cut anywhere gave a
/// face's score by where the picture's width put the cut; on one grid a
/// tile gives the scores of one pass over the whole picture, as the
/// `yuface` reference runs it. Square tiles of at most 1024 px, as first
/// written, searched 1.2–1.3 times a picture's pixels and saw their own cut
/// edges; whole levels up to 4096 px wide searched 1.0 times and gave fewer
/// false faces, but their row buffers took 60 MB more per worker
/// (docs/BENCHMARKS.md). A detection that comes within `innerEdgeMargin`
/// of a tile edge another tile covers is dropped (that tile holds the face
/// whole when it is narrower than the overlap; a larger one is found
/// whole a level up). Levels after the finest keep only faces of at least
/// `coarseLevelSmallestFace` level pixels: smaller ones are the finer
/// levels' (and `overlap` / `levelFactor` is above that, so a face cut by
/// every tile of its level is kept a level up).
package struct YuNetSearchPlan: Sendable, Equatable {
    package static let maximumTile = 2112
    package static let coarsestLevelSide = 1024
    package static let overlap = 128
    package static let innerEdgeMargin: Float = 4
    package static let levelFactor = 4
    package static let finestFacePixels: Float = 20
    package static let coarseLevelSmallestFace: Float = 24

    /// A region of a level image the detector reads as a picture of its own.
    package struct Tile: Sendable, Equatable {
        package var x: Int, y: Int, width: Int, height: Int
        /// Whether another tile covers the pixels beyond each edge.
        package var innerLeft: Bool, innerTop: Bool, innerRight: Bool, innerBottom: Bool
    }

    package struct Level: Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// Picture pixels per level pixel.
        package var scale: Float
        package var tiles: [Tile]
    }

    package var levels: [Level]

    package init(width: Int, height: Int, minFacePixels: Float) {
        var scale = max(1, minFacePixels / Self.finestFacePixels)
        var levels: [Level] = []
        while true {
            let levelWidth = max(1, Int((Float(width) / scale).rounded()))
            let levelHeight = max(1, Int((Float(height) / scale).rounded()))
            let columns = Self.spans(levelWidth), rows = [(start: 0, length: levelHeight)]
            var tiles: [Tile] = []
            for (rowIndex, row) in rows.enumerated() {
                for (columnIndex, column) in columns.enumerated() {
                    tiles.append(Tile(x: column.start, y: row.start, width: column.length, height: row.length,
                                      innerLeft: columnIndex > 0, innerTop: rowIndex > 0,
                                      innerRight: columnIndex < columns.count - 1, innerBottom: rowIndex < rows.count - 1))
                }
            }
            levels.append(Level(width: levelWidth, height: levelHeight, scale: scale, tiles: tiles))
            if levelWidth <= Self.coarsestLevelSide && levelHeight <= Self.coarsestLevelSide { break }
            scale *= Float(Self.levelFactor)
        }
        self.levels = levels
    }

    /// Spans covering `0..<extent`, each at most `maximumTile` long,
    /// neighbours overlapping by at least `overlap`, the last ending at
    /// `extent`. Every span starts on a multiple of `YuNetGraph.alignment`,
    /// so every tile samples the picture on the grid of one pass over the
    /// whole picture, and every span pads up to one width (one plan).
    package static func spans(_ extent: Int) -> [(start: Int, length: Int)] {
        guard extent > maximumTile else { return [(0, extent)] }
        let a = YuNetGraph.alignment
        func roundedUp(_ value: Int) -> Int { (value + a - 1) / a * a }
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

    /// Whether `box` (level pixels) comes within `innerEdgeMargin` of an edge of `tile` that another tile covers.
    package static func touchesInnerEdge(_ box: Rect, of tile: Tile) -> Bool {
        let m = innerEdgeMargin
        return (tile.innerLeft && box.x < Float(tile.x) + m)
            || (tile.innerTop && box.y < Float(tile.y) + m)
            || (tile.innerRight && box.x + box.width > Float(tile.x + tile.width) - m)
            || (tile.innerBottom && box.y + box.height > Float(tile.y + tile.height) - m)
    }
}
