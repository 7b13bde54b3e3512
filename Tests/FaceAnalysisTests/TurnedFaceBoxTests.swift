import FaceAnalysis
import Foundation
import ImageCore
import Testing

/// The reported box of a face turned in-plane (`TurnedFaceBox`).
@Suite struct TurnedFaceBoxTests {
    /// IoU of two boxes of sides `a` and `b` about one centre.
    static func centredIoU(_ a: Float, _ b: Float) -> Float { min(a, b) * min(a, b) / (max(a, b) * max(a, b)) }

    @Test(arguments: [0, 5, 10, -10, 90, 180, -90, 270] as [Float])
    func uprightAndQuarterTurnedFacesKeepTheDetectorBox(degrees: Float) {
        #expect(TurnedFaceBox.growth(roll: degrees * .pi / 180) == 1)
    }

    @Test(arguments: [15, 20, 25, 30, 40, 45] as [Float])
    func turnedFacesMatchBothLabelConventions(degrees: Float) {
        let k = TurnedFaceBox.growth(roll: degrees * .pi / 180)
        #expect(k > 1)
        // The same growth a quarter turn away, and mirrored.
        #expect(abs(TurnedFaceBox.growth(roll: (degrees + 90) * .pi / 180) - k) < 1e-5)
        #expect(abs(TurnedFaceBox.growth(roll: -degrees * .pi / 180) - k) < 1e-5)
        // A label of the face's own size, and one around the turned face: both at IoU ≥ 0.68.
        let r = degrees * .pi / 180, hull = abs(cos(r)) + abs(sin(r))
        #expect(Self.centredIoU(k, 1) >= 0.68, "\(degrees)°: upright label IoU \(Self.centredIoU(k, 1))")
        #expect(Self.centredIoU(k, hull) >= 0.68, "\(degrees)°: hull label IoU \(Self.centredIoU(k, hull))")
    }

    @Test func growthRisesWithTheRollUpTo45Degrees() {
        let growths = stride(from: Float(10), through: 45, by: 5).map { TurnedFaceBox.growth(roll: $0 * .pi / 180) }
        #expect(zip(growths, growths.dropFirst()).allSatisfy { $0 < $1 })
        // Continuous where it starts: just past the dead zone the box is barely larger.
        #expect(TurnedFaceBox.growth(roll: 10.5 * .pi / 180) < 1.01)
    }

    @Test func theBoxGrowsAboutItsCentreAndFaceMeshSeesTheDetectorBox() {
        // Eyes on a line turned by 30° (y down: the right eye lower).
        let a = Float(30) * .pi / 180
        let keypoints = [Point(x: 100, y: 100), Point(x: 100 + 40 * cos(a), y: 100 + 40 * sin(a)),
                         Point(x: 110, y: 120), Point(x: 110, y: 140), Point(x: 80, y: 110), Point(x: 150, y: 130)]
        let detector = Rect(x: 70, y: 70, width: 90, height: 90)
        let reported = TurnedFaceBox.box(detector, keypoints: keypoints)
        let k = TurnedFaceBox.growth(roll: a)
        #expect(abs(reported.width - 90 * k) < 1e-3 && abs(reported.height - 90 * k) < 1e-3)
        #expect(abs(reported.centerX - detector.centerX) < 1e-3 && abs(reported.centerY - detector.centerY) < 1e-3)
        let roi = RotatedSquare.faceMeshROI(for: FaceDetection(box: reported, score: 0.9, keypoints: keypoints))
        #expect(abs(roi.side - 135) < 1e-3)
        #expect(abs(roi.rotation - a) < 1e-5)
    }

    /// A face turned by 30° gets a box that matches both label conventions
    /// at IoU ≥ 0.5 (the detector's own box, 0.46 against the label around
    /// the turned face, would not); the upright face keeps the detector's.
    @Test func aTurnedPhotoFaceGetsTheLargerBox() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        let options = FaceDetectionOptions(mode: .pyramid)
        let upright = try #require(try analyzer.detect(in: astronaut, options: options).first)
        let turned = try #require(try analyzer.detect(in: astronaut.rotated(degrees: 30), options: options).first)
        #expect(TurnedFaceBox.growth(keypoints: upright.keypoints) < 1.01)
        let k = TurnedFaceBox.growth(keypoints: turned.keypoints)
        #expect(k > 1.1, "growth \(k)")
        // The labels: the upright face's box turned about the image centre, at its own size and as the hull of the turned square.
        let r = Float(-30) * .pi / 180
        let cx = Float(astronaut.width) / 2, cy = Float(astronaut.height) / 2
        let dx = upright.box.centerX - cx, dy = upright.box.centerY - cy
        let centre = Point(x: cx + cos(r) * dx - sin(r) * dy, y: cy + sin(r) * dx + cos(r) * dy)
        let side = upright.box.width, hull = side * (abs(cos(r)) + abs(sin(r)))
        let own = Rect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side)
        let around = Rect(x: centre.x - hull / 2, y: centre.y - hull / 2, width: hull, height: hull)
        #expect(turned.box.intersectionOverUnion(own) >= 0.5, "own-size label IoU \(turned.box.intersectionOverUnion(own))")
        #expect(turned.box.intersectionOverUnion(around) >= 0.5, "turned-face label IoU \(turned.box.intersectionOverUnion(around))")
    }
}
