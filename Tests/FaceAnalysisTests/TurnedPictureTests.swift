import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// Whole pictures turned in-plane (a scan or a phone held askew): every
/// face of at least 40 px `.accurate` finds in the upright photo is found
/// in the photo turned by 20–30° by ImageCore, where the first search
/// alone loses one (t1 at half size): the faces it does find show the
/// tilt, and the picture is searched again turned upright.
@Suite(.enabled(if: Fixtures.modelsAvailable)) struct TurnedPictureTests {
    struct Case: Sendable, CustomStringConvertible {
        var photo: String
        /// The photo is first made this many times smaller (area average).
        var shrink: Int
        var degrees: Float
        var description: String { "\(photo) 1/\(shrink) turned \(degrees)°" }
    }

    /// t1 at half size has six faces of 48–61 px; turned 30° counter-clockwise
    /// (−30) or −20°, the first search alone finds five of them.
    static let cases = [Case(photo: "t1.jpg", shrink: 2, degrees: -30), Case(photo: "t1.jpg", shrink: 2, degrees: -20),
                        Case(photo: "t1.jpg", shrink: 2, degrees: 30), Case(photo: "t1.jpg", shrink: 1, degrees: -30),
                        Case(photo: "breakingbad.jpg", shrink: 1, degrees: 30)]

    @Test(arguments: cases)
    func facesFoundUprightAreFoundTurned(_ c: Case) throws {
        let analyzer = try FaceTestSupport.analyzer()
        let full = try FaceTestSupport.photo(c.photo)
        let photo = c.shrink == 1 ? full : try full.downscaledAreaAverage(width: full.width / c.shrink, height: full.height / c.shrink)
        let options = FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20))
        let upright = try analyzer.detect(in: photo, options: options).filter { $0.box.longerSide >= 40 }
        try #require(upright.count >= 2)
        let turned = photo.turned(by: c.degrees * .pi / 180)
        let found = try analyzer.detect(in: turned.image, options: options)
        // A face is found when a turned detection's centre, mapped back, is near its centre and its size is the face's.
        let lost = upright.filter { face in
            !found.contains { detection in
                let centre = turned.toSource.map(Point(x: detection.box.centerX, y: detection.box.centerY))
                let distance = hypot(centre.x - face.box.centerX, centre.y - face.box.centerY)
                let ratio = detection.box.longerSide / face.box.longerSide
                return distance <= 0.25 * face.box.longerSide && ratio > 0.6 && ratio < 1.7
            }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(upright.count) upright faces lost: \(lost.map(\.box))")
        // Turned back, the found faces are the upright ones: no more than one extra.
        #expect(found.filter { $0.box.longerSide >= 40 }.count <= upright.count + 1)
    }
}
