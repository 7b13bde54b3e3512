import FaceAnalysis
import ImageCore
import Testing

struct DetectionRegionPlanTests {
    struct TiledCase: Sendable, CustomTestStringConvertible {
        var width: Int, height: Int, minFaceSize: Float
        var testDescription: String { "\(width)×\(height) minFaceSize \(minFaceSize)" }
    }

    static let tiledCases = [
        TiledCase(width: 1280, height: 886, minFaceSize: 0.05),
        TiledCase(width: 1280, height: 886, minFaceSize: 0.1),
        TiledCase(width: 4000, height: 3000, minFaceSize: 0.05),
        TiledCase(width: 4000, height: 3000, minFaceSize: 0.01),
        TiledCase(width: 3000, height: 4000, minFaceSize: 0.02),
        TiledCase(width: 8000, height: 1000, minFaceSize: 0.01),
        TiledCase(width: 2560, height: 1800, minFaceSize: 0.015),
    ]

    /// Source pixels per level pixel along x.
    static func scale(_ plan: DetectionRegionPlan, _ level: Int) -> Float {
        Float(plan.levels[0].width) / Float(plan.levels[level].width)
    }

    @Test(arguments: tiledCases)
    func levelsSpanMinFaceSizeToTheWholeFrameInStepsOfAtMostTwo(_ c: TiledCase) throws {
        let plan = DetectionRegionPlan(width: c.width, height: c.height, inputSize: 192, minFaceSize: c.minFaceSize, tiled: true)
        try #require(plan.levels.count >= 2)
        #expect(plan.levels[0] == .init(width: c.width, height: c.height))
        // Tile side in source pixels per level, finest first.
        let sides = (1..<plan.levels.count).map { 192 * Self.scale(plan, $0) }
        let longSide = Float(max(c.width, c.height))
        // The finest level makes a face of minFaceSize 32 input pixels (or is the picture itself).
        let finest = max(c.minFaceSize * Float(c.width) * 192 / DetectionRegionPlan.smallestFacePixels, 192)
        #expect(abs(sides[0] - finest) <= 0.01 * finest, "finest tile side \(sides[0]), want \(finest)")
        for (smaller, larger) in zip(sides, sides.dropFirst()) {
            #expect(larger > smaller && larger <= 2.02 * smaller, "sides \(sides)")
        }
        #expect(sides.last! < longSide && 2.02 * sides.last! >= longSide, "sides \(sides), long side \(longSide)")
        // The aspect ratio survives each level (rounding only).
        for level in plan.levels.dropFirst() {
            #expect(abs(Float(level.width) / Float(level.height) - Float(c.width) / Float(c.height)) < 0.02 * Float(c.width) / Float(c.height) + 2 / Float(level.height))
        }
    }

    @Test(arguments: tiledCases)
    func tilesAreInputSizedCropsCoveringTheirLevelWithOverlap(_ c: TiledCase) {
        let plan = DetectionRegionPlan(width: c.width, height: c.height, inputSize: 192, minFaceSize: c.minFaceSize, tiled: true)
        let whole = plan.regions[0]
        #expect(whole.level == plan.levels.count - 1)
        #expect(whole.square == .letterbox(width: plan.levels[whole.level].width, height: plan.levels[whole.level].height))
        for levelIndex in 1..<plan.levels.count {
            let level = plan.levels[levelIndex]
            let tiles = plan.regions.dropFirst().filter { $0.level == levelIndex }
            #expect(!tiles.isEmpty)
            for tile in tiles {
                #expect(tile.square.side == 192)
                #expect(tile.square.x == tile.square.x.rounded() && tile.square.y == tile.square.y.rounded())
                #expect(tile.innerLeft == (tile.square.x > 0) && tile.innerRight == (tile.square.x + 192 < Float(level.width)))
            }
            // Every point of the level (on a 7-px grid) lies in some tile at least 24 px from an inner edge,
            // except near the level's borders: the overlap lets each small face sit wholly in one tile.
            for y in stride(from: Float(0.5), to: Float(level.height), by: 7) {
                for x in stride(from: Float(0.5), to: Float(level.width), by: 7) {
                    let held = tiles.contains { t in
                        let s = t.square
                        func inside(_ p: Float, _ lo: Float, _ innerLo: Bool, _ innerHi: Bool) -> Bool {
                            p >= lo + (innerLo ? 24 : -1e9) && p <= lo + 192 - (innerHi ? 24 : -1e9)
                        }
                        return inside(x, s.x, t.innerLeft, t.innerRight) && inside(y, s.y, t.innerTop, t.innerBottom)
                    }
                    #expect(held, "level \(levelIndex) \(level): point (\(x), \(y)) is in no tile's interior")
                    if !held { return }
                }
            }
        }
    }

    @Test(arguments: tiledCases)
    func detectionsMapFromTheLevelBackToSourcePixels(_ c: TiledCase) throws {
        let plan = DetectionRegionPlan(width: c.width, height: c.height, inputSize: 192, minFaceSize: c.minFaceSize, tiled: true)
        let tile = try #require(plan.regions.last)
        var coordinates = SIMD16<Float>(repeating: 0.5)
        coordinates[0] = 0.25; coordinates[1] = 0.5; coordinates[2] = 0.75; coordinates[3] = 1
        let face = plan.toImage(NormalizedDetection(coordinates: coordinates, score: 0.9), of: tile)
        let sx = Float(c.width) / Float(plan.levels[tile.level].width), sy = Float(c.height) / Float(plan.levels[tile.level].height)
        #expect(abs(face.box.x - (tile.square.x + 48) * sx) < 1e-2 * sx)
        #expect(abs(face.box.y - (tile.square.y + 96) * sy) < 1e-2 * sy)
        #expect(abs(face.box.width - 96 * sx) < 1e-2 * sx && abs(face.box.height - 96 * sy) < 1e-2 * sy)
        #expect(face.keypoints.count == 6 && face.score == 0.9)
        #expect(abs(face.keypoints[0].x - (tile.square.x + 96) * sx) < 1e-2 * sx)
    }

    @Test func smallImagesAndUntiledPlansUseTheWholeFrameOnly() {
        for plan in [
            DetectionRegionPlan(width: 640, height: 480, inputSize: 192, minFaceSize: 0.2, tiled: true),
            DetectionRegionPlan(width: 4000, height: 3000, inputSize: 192, minFaceSize: 0.01, tiled: false),
            DetectionRegionPlan(width: 150, height: 100, inputSize: 192, minFaceSize: 0, tiled: true),
        ] {
            let source = plan.levels[0]
            #expect(plan.levels.count == 1)
            #expect(plan.regions == [.init(square: .letterbox(width: source.width, height: source.height), level: 0)])
        }
    }

    @Test func largeImagesWithoutTilesLetterboxFromAPrefilterLevel() {
        // minFaceSize 0.5 of 4000 px: the whole frame serves it, no tiles; the letterbox reads a 768-px copy.
        let plan = DetectionRegionPlan(width: 4000, height: 3000, inputSize: 192, minFaceSize: 0.5, tiled: true)
        #expect(plan.levels == [.init(width: 4000, height: 3000), .init(width: 768, height: 576)])
        #expect(plan.regions == [.init(square: .letterbox(width: 768, height: 576), level: 1)])
    }
}
