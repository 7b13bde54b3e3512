import FaceAnalysis
import ImageCore
import Testing

/// The short-range family's `PyramidSearch` (levels evenly spaced up to the whole frame, mirrored canvases).
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

    static let search = DetectorFamily.blazeFaceShortRange.pyramid!

    /// The short-range family's plan, its whole frame read by the full-range model (192 px).
    static func plan(_ width: Int, _ height: Int, minFacePixels: Float) -> SearchPlan {
        SearchPlan(search, width: width, height: height, minFacePixels: minFacePixels, wholeFrameInput: 192)
    }

    /// Source pixels per level pixel along x.
    static func scale(_ plan: SearchPlan, _ level: Int) -> Float {
        Float(plan.levels[0].width) / Float(plan.levels[level].width)
    }

    @Test(arguments: tiledCases)
    func levelsSpanMinFaceSizeToTheWholeFrameInStepsOfAtMostTwo(_ c: TiledCase) throws {
        let plan = Self.plan(c.width, c.height, minFacePixels: c.minFaceSize * Float(c.width))
        try #require(plan.levels.count >= 2)
        #expect(plan.levels[0] == .init(width: c.width, height: c.height))
        // Tile side in source pixels per level, finest first.
        let sides = (1..<plan.levels.count).map { 192 * Self.scale(plan, $0) }
        let longSide = Float(max(c.width, c.height))
        // The finest level makes a face of minFaceSize 32 input pixels (or is the picture itself).
        let finest = max(c.minFaceSize * Float(c.width) * 192 / Self.search.smallestFace, 192)
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
    func canvasesAreFittedCropsCoveringTheirLevelWithOverlap(_ c: TiledCase) throws {
        let plan = Self.plan(c.width, c.height, minFacePixels: c.minFaceSize * Float(c.width))
        let whole = try #require(plan.wholeFrame)
        #expect(whole.level == plan.levels.count - 1)
        #expect(whole.square == .letterbox(width: plan.levels[whole.level].width, height: plan.levels[whole.level].height))
        let g = Self.search.alignment, maximum = Self.search.maximumTile
        // The least distance from an inner edge at which every point is held: faces up to
        // `canvasOverlap - 2·margin` wide fit wholly inside one canvas away from its cut edges.
        let clearance = Float(Self.search.overlap) / 2 - 1
        for levelIndex in 1..<plan.levels.count {
            let level = plan.levels[levelIndex]
            let canvases = plan.tiles.filter { $0.level == levelIndex }
            #expect(!canvases.isEmpty)
            for canvas in canvases {
                #expect(canvas.width % g == 0 && canvas.height % g == 0 && canvas.width <= maximum, "\(canvas)")
                // The level's whole height, centred where the granularity rounds it up.
                #expect(canvas.y <= 0 && canvas.y + canvas.height >= level.height && canvas.height < level.height + g, "\(canvas) on \(level)")
                // Fitted to the level: padding only up to the next multiple of the granularity.
                #expect(canvas.width < level.width + g && canvas.height < level.height + g, "\(canvas) on \(level)")
                #expect(canvas.innerLeft == (canvas.x > 0) && canvas.innerRight == (canvas.x + canvas.width < level.width))
                #expect(canvas.x > -g && canvas.y > -g && canvas.x + canvas.width < level.width + g && canvas.y + canvas.height < level.height + g)
            }
            for y in stride(from: Float(0.5), to: Float(level.height), by: 7) {
                for x in stride(from: Float(0.5), to: Float(level.width), by: 7) {
                    let held = canvases.contains { t in
                        func inside(_ p: Float, _ lo: Int, _ size: Int, _ innerLo: Bool, _ innerHi: Bool) -> Bool {
                            p >= Float(lo) + (innerLo ? clearance : -1e9) && p <= Float(lo + size) - (innerHi ? clearance : -1e9)
                        }
                        return inside(x, t.x, t.width, t.innerLeft, t.innerRight) && inside(y, t.y, t.height, false, false)
                    }
                    #expect(held, "level \(levelIndex) \(level): point (\(x), \(y)) is in no canvas's interior")
                    if !held { return }
                }
            }
        }
    }

    /// The alignment is the family row's, not the short-range model's: a
    /// family whose network has a total stride of 32 (the back-camera row,
    /// BackCameraFamily.swift) gets canvases in multiples of 32 that still
    /// cover each level, where the canvas plan used to size every canvas
    /// by the short-range model's 16.
    @Test(arguments: tiledCases)
    func canvasesFollowTheFamilysOwnAlignment(_ c: TiledCase) throws {
        var search = Self.search
        search.alignment = try #require(DetectorFamily.blazeFaceBackCamera.anchorLayout).totalStride
        #expect(search.alignment == 32 && Self.search.alignment == 16)
        let plan = SearchPlan(search, width: c.width, height: c.height, minFacePixels: c.minFaceSize * Float(c.width), wholeFrameInput: 192)
        #expect(!plan.tiles.isEmpty)
        for tile in plan.tiles {
            #expect(tile.width % 32 == 0 && tile.height % 32 == 0 && tile.width <= search.maximumTile, "\(tile)")
        }
        for levelIndex in 1..<plan.levels.count {
            let level = plan.levels[levelIndex], tiles = plan.tiles.filter { $0.level == levelIndex }
            #expect(tiles.first.map { $0.x <= 0 && $0.y <= 0 } == true && tiles.last.map { $0.x + $0.width >= level.width } == true,
                    "level \(levelIndex) \(level): \(tiles)")
            #expect(tiles.allSatisfy { $0.y + $0.height >= level.height })
        }
    }

    struct SpanCase: Sendable, CustomTestStringConvertible {
        var extent: Int
        var spans: [Int]
        var size: Int
        var testDescription: String { "extent \(extent)" }
    }

    @Test(arguments: [
        SpanCase(extent: 300, spans: [-2], size: 304),
        SpanCase(extent: 1056, spans: [0], size: 1056),
        SpanCase(extent: 1057, spans: [0, 481], size: 576),
        SpanCase(extent: 2048, spans: [0, 992], size: 1056),
        SpanCase(extent: 4000, spans: [0, 981, 1963, 2944], size: 1056),
        SpanCase(extent: 17, spans: [-7], size: 32),
    ])
    func canvasSpansAreFewestFittedAndMirrorSymmetric(_ c: SpanCase) {
        let spans = Self.search.spans(c.extent)
        #expect(spans.map(\.start) == c.spans)
        #expect(spans.allSatisfy { $0.length == c.size })
        for (a, b) in zip(spans, spans.dropFirst()) {
            #expect(a.start + a.length - b.start >= Self.search.overlap - 1)
        }
        for (a, b) in zip(spans, spans.reversed()) where spans.count > 1 {
            #expect(a.start == c.extent - b.start - b.length)
        }
    }

    @Test(arguments: tiledCases)
    func detectionsMapFromTheCanvasBackToSourcePixels(_ c: TiledCase) throws {
        let plan = Self.plan(c.width, c.height, minFacePixels: c.minFaceSize * Float(c.width))
        let canvas = try #require(plan.tiles.last)
        var coordinates = SIMD16<Float>(repeating: 96)
        coordinates[0] = 48; coordinates[1] = 96; coordinates[2] = 144; coordinates[3] = 192
        let face = plan.toImage(DetectionCandidate(coordinates: coordinates, score: 0.9), of: canvas)
        let sx = Float(c.width) / Float(plan.levels[canvas.level].width), sy = Float(c.height) / Float(plan.levels[canvas.level].height)
        #expect(abs(face.box.x - (Float(canvas.x) + 48) * sx) < 1e-2 * sx)
        #expect(abs(face.box.y - (Float(canvas.y) + 96) * sy) < 1e-2 * sy)
        #expect(abs(face.box.width - 96 * sx) < 1e-2 * sx && abs(face.box.height - 96 * sy) < 1e-2 * sy)
        #expect(face.keypoints.count == 6 && face.score == 0.9)
        #expect(abs(face.keypoints[0].x - (Float(canvas.x) + 96) * sx) < 1e-2 * sx)
    }

    @Test func detectionsCutByAnInnerEdgeAreRecognized() {
        let canvas = SearchPlan.Tile(x: 100, y: 0, width: 384, height: 256, level: 1, innerLeft: true, innerRight: false)
        #expect(canvas.touchesInnerEdge(minX: 1, maxX: 40, margin: Self.search.innerEdgeMargin))
        #expect(!canvas.touchesInnerEdge(minX: 3, maxX: 40, margin: Self.search.innerEdgeMargin))
        // Outer edges (right, top, bottom here) keep faces cut by the picture's border.
        #expect(!canvas.touchesInnerEdge(minX: 350, maxX: 384, margin: Self.search.innerEdgeMargin))
    }

    @Test func smallImagesAndUntiledPlansUseTheWholeFrameOnly() {
        for plan in [
            Self.plan(640, 480, minFacePixels: 0.2 * 640),
            SearchPlan(wholeFrameOf: 4000, 3000, input: 192),
            Self.plan(150, 100, minFacePixels: 0),
        ] {
            let source = plan.levels[0]
            #expect(plan.levels.count == 1)
            #expect(plan.tiles.isEmpty)
            #expect(plan.wholeFrame == .init(square: .letterbox(width: source.width, height: source.height), level: 0))
        }
    }

    @Test func largeImagesWithoutCanvasesLetterboxFromAPrefilterLevel() {
        // minFaceSize 0.5 of 4000 px: the whole frame serves it, no canvases; the letterbox reads a 768-px copy.
        let plan = Self.plan(4000, 3000, minFacePixels: 0.5 * 4000)
        #expect(plan.levels.map { [$0.width, $0.height] } == [[4000, 3000], [768, 576]])
        #expect(plan.tiles.isEmpty)
        #expect(plan.wholeFrame == .init(square: .letterbox(width: 768, height: 576), level: 1))
    }
}
