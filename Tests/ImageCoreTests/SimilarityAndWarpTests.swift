import ImageCore
import Testing

@Suite struct SimilarityAndWarpTests {
    static let points = [Point(x: 10, y: 12), Point(x: 40, y: 11), Point(x: 25, y: 30), Point(x: 14, y: 44), Point(x: 37, y: 45)]

    @Test func recoversAnExactSimilarity() throws {
        let truth = AffineMap.rotation(radians: 0.3).followed(by: .scale(1.7)).followed(by: .translation(x: -5, y: 22))
        let target = Self.points.map(truth.map)
        let fit = try #require(AffineMap.leastSquaresSimilarity(from: Self.points, to: target))
        for (p, q) in zip(Self.points, target) {
            let m = fit.map(p)
            #expect(abs(m.x - q.x) < 1e-3 && abs(m.y - q.y) < 1e-3)
        }
    }

    @Test func neverReflects() throws {
        // Mirrored targets: the best similarity is a poor fit, but keeps orientation (determinant > 0).
        let mirrored = Self.points.map { Point(x: -$0.x, y: $0.y) }
        let fit = try #require(AffineMap.leastSquaresSimilarity(from: Self.points, to: mirrored))
        #expect(fit.determinant > 0)
        #expect(fit.a == fit.d && fit.b == -fit.c, "rotation and uniform scale only")
    }

    @Test func rejectsDegenerateInput() {
        #expect(AffineMap.leastSquaresSimilarity(from: [Point(x: 1, y: 1)], to: [Point(x: 2, y: 2)]) == nil)
        #expect(AffineMap.leastSquaresSimilarity(from: [Point(x: 1, y: 1), Point(x: 1, y: 1)],
                                                 to: [Point(x: 0, y: 0), Point(x: 3, y: 3)]) == nil)
    }

    @Test func warpByAWholePixelTranslationCopies() throws {
        let image = TestImages.noise(width: 40, height: 30)
        let warped = image.warped(.translation(x: 5, y: 7), size: 12)
        #expect(warped == (try image.cropped(to: Rect(x: 5, y: 7, width: 12, height: 12))))
    }

    @Test func warpIsBlackOutsideThePicture() {
        let image = RGBImage(width: 8, height: 8, fill: (200, 100, 50))
        let warped = image.warped(.translation(x: -4, y: 0), size: 8)
        #expect(warped.pixel(x: 0, y: 3) == .black)
        #expect(warped.pixel(x: 6, y: 3) == RGBColor(r: 200, g: 100, b: 50))
    }
}
