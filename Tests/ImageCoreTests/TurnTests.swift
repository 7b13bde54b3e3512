import Foundation
import ImageCore
import Testing

struct TurnTests {
    /// A picture whose every pixel differs.
    static func picture(width: Int = 37, height: Int = 23) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(x * 7 % 256), UInt8(y * 11 % 256), UInt8((x * 3 + y * 5) % 256)] }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test func noTurnIsTheSamePicture() {
        let source = Self.picture()
        let turned = source.turned(by: 0)
        #expect(turned.image == source)
        #expect(turned.toSource.map(Point(x: 3, y: 4)) == Point(x: 3, y: 4))
    }

    /// Whole quarter turns are exact: the same pixels as the EXIF turns.
    @Test(arguments: [(Float.pi / 2, ExifOrientation.rightTop), (-Float.pi / 2, .leftBottom), (Float.pi, .bottomRight)])
    func quarterTurnsMovePixels(_ radians: Float, _ orientation: ExifOrientation) {
        let source = Self.picture()
        #expect(source.turned(by: radians).image == source.oriented(orientation))
    }

    /// The canvas holds the whole turned picture, the map takes a canvas
    /// point back to where it came from, and the pixel there is the one
    /// sampled (a constant picture keeps its value wherever it is covered).
    @Test(arguments: [Float(30), -30, 12, -45])
    func theCanvasHoldsThePictureAndMapsBack(_ degrees: Float) throws {
        let width = 120, height = 80
        let source = RGBImage(width: width, height: height, fill: (200, 100, 50))
        let radians = degrees * .pi / 180
        let turned = source.turned(by: radians, fill: (0, 0, 255))
        let c = abs(cos(radians)), s = abs(sin(radians))
        #expect(turned.image.width == Int((Float(width) * c + Float(height) * s - 1e-3).rounded(.up)))
        #expect(turned.image.height == Int((Float(width) * s + Float(height) * c - 1e-3).rounded(.up)))
        let back = try #require(turned.toSource.inverted())
        // The picture's corners land inside the canvas, its centre on the canvas's.
        for corner in [Point(x: 0, y: 0), Point(x: Float(width), y: 0), Point(x: 0, y: Float(height)), Point(x: Float(width), y: Float(height))] {
            let p = back.map(corner)
            #expect(p.x >= -0.01 && p.y >= -0.01 && p.x <= Float(turned.image.width) + 0.01 && p.y <= Float(turned.image.height) + 0.01)
        }
        let centre = back.map(Point(x: Float(width) / 2, y: Float(height) / 2))
        #expect(abs(centre.x - Float(turned.image.width) / 2) < 1e-3 && abs(centre.y - Float(turned.image.height) / 2) < 1e-3)
        // Clockwise on screen: the picture's top-right corner moves down for a positive turn.
        let topRight = back.map(Point(x: Float(width), y: 0)), topLeft = back.map(Point(x: 0, y: 0))
        #expect(degrees > 0 ? topRight.y > topLeft.y : topRight.y < topLeft.y)
        var covered = 0
        for v in 0..<turned.image.height {
            for u in 0..<turned.image.width {
                let i = (v * turned.image.width + u) * 3
                let value = Array(turned.image.pixels[i..<i + 3])
                let p = turned.toSource.map(Point(x: Float(u) + 0.5, y: Float(v) + 0.5))
                let inside = p.x > 0.51 && p.y > 0.51 && p.x < Float(width) - 0.51 && p.y < Float(height) - 0.51
                let outside = p.x < -0.49 || p.y < -0.49 || p.x > Float(width) + 0.49 || p.y > Float(height) + 0.49
                if inside { #expect(value == [200, 100, 50]); covered += 1 }
                if outside { #expect(value == [0, 0, 255]) }
            }
        }
        // The covered area is the picture's (within its edge pixels).
        #expect(abs(covered - width * height) < 2 * (width + height) + 8)
    }

    /// Bilinear between neighbours: a horizontal ramp turned by a small
    /// angle stays a ramp (each covered pixel within one level of the
    /// exact interpolation).
    @Test func valuesAreBilinearAndRoundedHalfUp() {
        let width = 64, height = 48
        var pixels: [UInt8] = []
        for _ in 0..<height { for x in 0..<width { pixels += [UInt8(x * 4), UInt8(x * 4), UInt8(x * 4)] } }
        let source = RGBImage(width: width, height: height, pixels: pixels)
        let turned = source.turned(by: 10 * .pi / 180)
        for v in 0..<turned.image.height {
            for u in 0..<turned.image.width {
                let p = turned.toSource.map(Point(x: Float(u) + 0.5, y: Float(v) + 0.5))
                guard p.x > 1, p.y > 1, p.x < Float(width) - 1, p.y < Float(height) - 1 else { continue }
                let exact = (p.x - 0.5) * 4
                #expect(abs(Float(turned.image.pixels[(v * turned.image.width + u) * 3]) - exact) <= 1.01, "at \(u), \(v)")
            }
        }
    }
}
