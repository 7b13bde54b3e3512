import FaceAnalysis
import Foundation
import ImageCore
import Inference
import Testing
import _TestSupport

/// `DetectorMode.yunet`: the search plan's levels and tiles, and that tiling
/// a large picture finds what YuNet finds on the photo alone.
struct YuNetSearchTests {
    static let search = DetectorFamily.yunetS.pyramid!

    static func plan(_ width: Int, _ height: Int, minFacePixels: Float) -> SearchPlan {
        SearchPlan(search, width: width, height: height, minFacePixels: minFacePixels)
    }

    /// The searched levels' scales and their tile counts (level 0, the picture, is searched as level 1 when the finest scale is 1).
    static func searched(_ plan: SearchPlan) -> [(scale: Float, width: Int, tiles: Int)] {
        plan.levels.indices.dropFirst().map { index in
            (plan.levels[index].scale, plan.levels[index].width, plan.tiles.filter { $0.level == index }.count)
        }
    }

    @Test(arguments: [1, 200, 1024, 1025, 4000, 4096, 4097, 9000, 20000])
    func spansCoverTheExtentWithTheOverlap(_ extent: Int) {
        let spans = Self.search.spans(extent)
        #expect(spans.first?.start == 0)
        #expect(spans.last.map { $0.start + $0.length } == extent)
        let a = YuNetGraph.alignment
        #expect(Set(spans.map { ($0.length + a - 1) / a }).count == 1, "one plan per level")
        for span in spans {
            #expect(span.length <= Self.search.maximumTile)
            #expect(span.start % a == 0, "\(span) starts off the whole picture's grid")
        }
        for (a, b) in zip(spans, spans.dropFirst()) {
            #expect(a.start + a.length - b.start >= Self.search.overlap, "\(a) \(b)")
            #expect(b.start > a.start)
        }
    }

    @Test func levelsShrinkByTheFactorUntilALevelFitsTheCoarsestSide() {
        let plan = Self.searched(Self.plan(4000, 3000, minFacePixels: 20))
        #expect(plan.map(\.scale) == [1, 4])
        #expect(plan.map(\.width) == [4000, 1000])
        #expect(plan.map(\.tiles) == [2, 1], "a 12 MP photo in two columns")
        #expect(Self.plan(4000, 3000, minFacePixels: 20).tiles.filter { $0.level == 1 }.allSatisfy { $0.y == 0 && $0.height == 3000 },
                "tiles span the level's height")
        let wide = Self.searched(Self.plan(9000, 3000, minFacePixels: 20))
        #expect(wide.map(\.scale) == [1, 4, 16])
        #expect(wide.map(\.tiles) == [5, 2, 1])
        // A coarser floor starts coarser: 100-px faces are 20 px at 1:5.
        #expect(Self.searched(Self.plan(4000, 3000, minFacePixels: 100)).map(\.scale) == [5])
        #expect(Self.searched(Self.plan(300, 200, minFacePixels: 0)).map(\.tiles) == [1])
        #expect(Self.plan(4000, 3000, minFacePixels: 20).wholeFrame == nil)
    }

    @Test func innerEdgesOnlyAreEdges() {
        let tiles = Self.plan(3000, 900, minFacePixels: 20).tiles.filter { $0.level == 1 }
        #expect(tiles.count == 2)
        let left = tiles[0], margin = Self.search.innerEdgeMargin
        #expect(!left.innerLeft && left.innerRight)
        #expect(left.touchesInnerEdge(minX: Float(left.width) - 10, maxX: Float(left.width) - 2, margin: margin))
        #expect(!left.touchesInnerEdge(minX: 0, maxX: 8, margin: margin))
    }

    /// t1.jpg shrunk so its faces are 20–30 px, pasted where the first two
    /// tiles of a 3600×1000 picture overlap, so some faces are cut by a tile
    /// edge: every face YuNet finds on the photo alone is found once, at the
    /// same place. (Not to the bit: YuNet sees other pixels around the photo
    /// and another 32-px grid, which moves boxes by a pixel or two and scores
    /// by a few hundredths, and may add a detection the photo alone lacks.)
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"))
    func aTiledPictureGivesThePhotosFaces() throws {
        let photo = try FaceTestSupport.photo("t1.jpg").downscaledAreaAverage(width: 320, height: 222)
        let analyzer = try FaceTestSupport.analyzer()
        let options = FaceDetectionOptions(mode: .yunet, minFaceSize: 0)
        let alone = try analyzer.detect(in: photo, options: options)
        #expect(alone.count >= 5, "t1 at 320 px: \(alone.count) faces")
        let (width, height) = (3600, 1000)
        let tiles = Self.plan(width, height, minFacePixels: 0).tiles.filter { $0.level == 1 }
        try #require(tiles.count == 2)
        let origin = (x: tiles[1].x - 150, y: 400)
        var pixels = [UInt8](repeating: 40, count: width * height * 3)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                for c in 0..<3 { pixels[((origin.y + y) * width + origin.x + x) * 3 + c] = photo.pixels[(y * photo.width + x) * 3 + c] }
            }
        }
        let big = try analyzer.detect(in: RGBImage(width: width, height: height, pixels: pixels), options: options)
        for (i, a) in big.enumerated() {
            for b in big[(i + 1)...] { #expect(a.box.intersectionOverUnion(b.box) <= 0.3, "one face found twice: \(a.box) \(b.box)") }
        }
        for face in alone {
            let moved = Rect(x: face.box.x + Float(origin.x), y: face.box.y + Float(origin.y), width: face.box.width, height: face.box.height)
            let matches = big.filter { $0.box.intersectionOverUnion(moved) > 0.6 }
            #expect(matches.count == 1, "face at \(moved): \(matches.count) matches")
            if let match = matches.first {
                #expect(abs(match.score - face.score) <= 0.05, "\(match.score) vs \(face.score)")
                #expect(match.keypoints.count == 4)
            }
        }
    }

    /// t1.jpg shrunk so its faces are 20–30 px, pasted well inside each
    /// tile of a 3600×1000 picture: the tiles give the same faces, to the
    /// bit, as one YuNet-s pass over the whole picture (boxes to a
    /// thousandth of a pixel: a tile's are moved by its offset after
    /// decoding), because every tile starts on that pass's 32-px grid (a tile starting 8 px off it moved
    /// scores by up to 0.3 on the composite set, docs/YUNET.md).
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"))
    func tilesSeeTheWholePicturesGrid() throws {
        let photo = try FaceTestSupport.photo("t1.jpg").downscaledAreaAverage(width: 320, height: 222)
        let (width, height) = (3600, 1000)
        let tiles = Self.plan(width, height, minFacePixels: 0).tiles.filter { $0.level == 1 }
        try #require(tiles.count == 2)
        let origins = [(x: 500, y: 100), (x: tiles[1].x + 500, y: 600)]
        var pixels = [UInt8](repeating: 40, count: width * height * 3)
        for origin in origins {
            for y in 0..<photo.height {
                for x in 0..<photo.width {
                    for c in 0..<3 { pixels[((origin.y + y) * width + origin.x + x) * 3 + c] = photo.pixels[(y * photo.width + x) * 3 + c] }
                }
            }
        }
        let picture = RGBImage(width: width, height: height, pixels: pixels)
        let arithmetic = DetectorArithmetic.int8
        let analyzer = try FaceTestSupport.analyzer()
        let tiled = try analyzer.detect(in: picture, options: FaceDetectionOptions(mode: .yunet, minFaceSize: 0, canvasArithmetic: arithmetic))
        let whole = try YuNetDetector(model: try analyzer.models.model(.yunet), minimumScore: 0.5,
                                      firstConvolution: arithmetic.firstConvolution, pointwise: arithmetic.yunetPointwise).detect(picture)
        #expect(whole.count >= 10, "two copies of t1 at 320 px: \(whole.count) faces")
        for face in whole {
            let same = tiled.filter { tile in
                tile.score == face.score && [tile.box.x - face.box.x, tile.box.y - face.box.y, tile.box.width - face.box.width,
                                              tile.box.height - face.box.height].allSatisfy { abs($0) < 1e-3 }
            }
            #expect(same.count == 1, "\(face.box) \(face.score): nearest tiled \(tiled.max { $0.box.intersectionOverUnion(face.box) < $1.box.intersectionOverUnion(face.box) }.map { "\($0.box) \($0.score)" } ?? "none")")
        }
        #expect(tiled.count == whole.count)
    }
}
