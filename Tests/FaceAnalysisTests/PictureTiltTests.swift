import FaceAnalysis
import Foundation
import ImageCore
import Testing

struct PictureTiltTests {
    /// A face of `eyeDistance` px whose eye line is turned `roll` degrees
    /// clockwise (y down), scoring `score`.
    static func face(roll: Float, eyeDistance: Float = 30, score: Float = 0.9, at x: Float = 200) -> FaceDetection {
        let a = roll * .pi / 180, half = eyeDistance / 2
        let dx = cos(a) * half, dy = sin(a) * half
        let centre = Point(x: x, y: 300)
        return FaceDetection(box: Rect(x: x - eyeDistance, y: 300 - eyeDistance, width: 2 * eyeDistance, height: 2 * eyeDistance),
                             score: score,
                             keypoints: [Point(x: centre.x - dx, y: centre.y - dy), Point(x: centre.x + dx, y: centre.y + dy),
                                         centre, Point(x: centre.x - 10 * sin(a), y: centre.y + 10 * cos(a))],
                             foundBy: .yunet)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var faces: [FaceDetection]
        /// Expected tilt in whole degrees, nil for none.
        var tilt: Float?
    }

    static let cases: [Case] = [
        Case(description: "three faces turned 30° agree", faces: [face(roll: 29), face(roll: 31.4), face(roll: 30.2)], tilt: 30),
        Case(description: "turned −20°, one face's head tilted the other way: the median", faces: [face(roll: -21), face(roll: -19), face(roll: 4)], tilt: -19),
        Case(description: "two heads tilted alike and one 36° the other way (an upright clip's frame)", faces: [face(roll: -21), face(roll: -21), face(roll: 15)], tilt: nil),
        Case(description: "three agree, a fourth 25.5° from the median of all four", faces: [face(roll: 30), face(roll: 31), face(roll: 29), face(roll: 4)], tilt: nil),
        Case(description: "three agree, a fourth 23.5° from the median of all four", faces: [face(roll: 30), face(roll: 31), face(roll: 29), face(roll: 6)], tilt: 30),
        Case(description: "an even count takes the middle pair's mean", faces: [face(roll: 14), face(roll: 16), face(roll: 18), face(roll: 22)], tilt: 17),
        Case(description: "upright heads tilted each their own way", faces: [face(roll: -14), face(roll: 3), face(roll: 16)], tilt: nil),
        Case(description: "upright group", faces: [face(roll: 2), face(roll: -4), face(roll: 5), face(roll: 1)], tilt: nil),
        Case(description: "tilt under the smallest searched", faces: [face(roll: 10), face(roll: 11)], tilt: nil),
        Case(description: "an upright group's heads (t1's six)", faces: [-16, -8, 4, 14, 26, 32].map { face(roll: $0) }, tilt: nil),
        Case(description: "a turned group's heads", faces: [14, 22, 34, 44, 41, 36].map { face(roll: $0) }, tilt: 35),
        Case(description: "one small face is no picture tilt", faces: [face(roll: 30, eyeDistance: 15)], tilt: nil),
        Case(description: "one large face turned 30° (a portrait turned as a whole)", faces: [face(roll: 30)], tilt: 30),
        Case(description: "one large face tilted 18°, under what large faces alone must show", faces: [face(roll: 18)], tilt: nil),
        Case(description: "small faces read upright beside a large one turned 28° (a turned composite)",
             faces: [face(roll: 2, eyeDistance: 15), face(roll: 1, eyeDistance: 15), face(roll: 28, eyeDistance: 40), face(roll: -1, eyeDistance: 12)],
             tilt: 28),
        Case(description: "two large heads tilted each their own way", faces: [face(roll: 25), face(roll: -22)], tilt: nil),
        Case(description: "a large box scoring 0.62 does not vote alone beside a face turned −27°",
             faces: [face(roll: -27, eyeDistance: 40, score: 0.92), face(roll: 4, eyeDistance: 120, score: 0.62)], tilt: -27),
        Case(description: "a lone large face scoring 0.65 is no picture tilt", faces: [face(roll: 30, score: 0.65)], tilt: nil),
        Case(description: "a lone large face scoring 0.7 votes alone", faces: [face(roll: 30, score: 0.7)], tilt: 30),
        Case(description: "low scores do not vote", faces: [face(roll: 30, score: 0.55), face(roll: 30, score: 0.5)], tilt: nil),
        Case(description: "eyes too close to read a roll", faces: [face(roll: 30, eyeDistance: 5), face(roll: 30, eyeDistance: 6)], tilt: nil),
        Case(description: "quarter turns are EXIF's", faces: [face(roll: 80), face(roll: 85)], tilt: nil),
        Case(description: "no agreement", faces: [face(roll: 40), face(roll: 12), face(roll: -30), face(roll: -5)], tilt: nil),
        Case(description: "three-keypoint-less faces", faces: [FaceDetection(box: Rect(x: 0, y: 0, width: 40, height: 40), score: 0.9, keypoints: [])], tilt: nil),
    ]

    @Test(arguments: cases)
    func estimatesThePicturesTilt(_ c: Case) throws {
        let estimate = PictureTilt.estimate(c.faces)
        if let tilt = c.tilt {
            let found = try #require(estimate)
            #expect(abs(found * 180 / .pi - tilt) < 1e-3)
        } else {
            #expect(estimate == nil)
        }
    }

    @Test func aFacesRollIsItsEyeLineClockwise() throws {
        let roll = try #require(PictureTilt.roll(of: Self.face(roll: 25)))
        #expect(abs(roll * 180 / .pi - 25) < 1e-3)
    }
}
