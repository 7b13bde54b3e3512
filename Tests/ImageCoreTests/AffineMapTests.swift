import Foundation
import ImageCore
import Testing

@Test func affineAlgebra() throws {
    let t = AffineMap.rotation(radians: 0.3).followed(by: .scale(x: 2, y: 3)).followed(by: .translation(x: 5, y: -7))
    let p = Point(x: 1.5, y: -4)
    let q = t.map(p)
    let manual = Point(x: 2 * (cos(0.3) * 1.5 + sin(0.3) * 4) + 5, y: 3 * (sin(0.3) * 1.5 - cos(0.3) * 4) - 7)
    #expect(abs(q.x - manual.x) < 1e-4 && abs(q.y - manual.y) < 1e-4)
    let inverse = try #require(t.inverted())
    let back = inverse.map(q)
    #expect(abs(back.x - p.x) < 1e-4 && abs(back.y - p.y) < 1e-4)
    #expect(AffineMap.scale(x: 0, y: 1).inverted() == nil)
    #expect(AffineMap.identity.followed(by: t) == t)
}

@Test func rotationAboutAPointTurnsClockwiseOnScreen() {
    // +90° about (4, 4): the x axis turns towards +y (down), so (6, 2) goes to (6, 6).
    let turned = AffineMap.rotation(radians: .pi / 2, about: Point(x: 4, y: 4)).map(Point(x: 6, y: 2))
    #expect(abs(turned.x - 6) < 1e-4 && abs(turned.y - 6) < 1e-4)
}

@Test func largerAxisScaleIsTheLongerAxisStretch() {
    #expect(AffineMap.scale(x: 3, y: 0.5).largerAxisScale == 3)
    #expect(AffineMap.scale(x: 0.5, y: -4).largerAxisScale == 4)
    let turned = AffineMap.scale(x: 2, y: 5).followed(by: .rotation(radians: 0.7)).followed(by: .translation(x: 9, y: 9))
    #expect(abs(turned.largerAxisScale - 5) < 1e-5)
}
