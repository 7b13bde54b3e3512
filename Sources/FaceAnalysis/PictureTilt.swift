import Foundation
import ImageCore

/// A whole picture's in-plane tilt, read from the faces a first search
/// found in it: each face's roll is its eye line (keypoints 0 → 1, as
/// `RotatedSquare.faceMeshROI` takes it). A picture turned as a whole (a
/// scan, a phone held askew) turns all its faces alike, and YuNet-s and
/// BlazeFace find fewer faces the further they are turned, so
/// `FaceAnalyzer.detect` searches such a picture once more turned upright
/// by the tilt (``FaceAnalyzer/addingTurnedFaces(to:in:composition:options:allowTiling:)``).
///
/// The tilt is the median roll of the voting faces (score from
/// `voterMinScore`, eyes at least `voterMinEyeDistance` px apart, roll
/// within 45° of upright), rounded to whole degrees, when at least
/// `minimumVoters` vote, more than half of them lie within `agreement` of
/// the median, none lies further than `largestSpread` from it, and it is at
/// least `minimumTilt`: people in one upright photo tilt their heads each
/// their own way, which gives no common tilt.
package enum PictureTilt {
    /// Faces scoring at least this vote.
    package static let voterMinScore: Float = 0.6
    /// Faces whose eyes are at least this many pixels apart vote (the eye
    /// line of a smaller face is several degrees off from a pixel's error).
    package static let voterMinEyeDistance: Float = 8
    /// Fewest voting faces for a tilt.
    package static let minimumVoters = 2
    /// Votes this close to the median (radians) agree with it.
    package static let agreement: Float = 10 * .pi / 180
    /// Smallest tilt searched again (radians). Under it the detectors lose
    /// few faces (`make eval-turned`, docs/BENCHMARKS.md), and upright
    /// group photos show median rolls up to about 10° (t1's six heads turn
    /// −16° to 32°, median 9°; Einstein's two −13° and −6°), which must not
    /// cost a second search nor change their faces.
    package static let minimumTilt: Float = 12 * .pi / 180
    /// Largest roll that votes (radians); past it, a face is turned a
    /// quarter or more (the picture's EXIF orientation's business).
    package static let largestRoll: Float = .pi / 4
    /// Largest distance of a vote from the median (radians). A picture
    /// turned as a whole turns every face by its tilt, so each face's roll
    /// is the tilt plus its head's own; a face further than this from the
    /// others says their rolls are heads tilted, not a turned picture. In
    /// `make clips`' enter-leave clip (t1's people, upright) two heads at
    /// −21° and one at +15° had 59 of its 150 frames searched twice (a third
    /// of `anonymize`'s time on it; 13 frames with this bound), while on
    /// `make eval-turned`'s pictures turned ±20–30° it loses one face of
    /// 186 at +30° (docs/BENCHMARKS.md).
    package static let largestSpread: Float = 25 * .pi / 180

    /// A face's roll (radians, clockwise on screen as y points down), or
    /// nil without two eye keypoints.
    package static func roll(of face: FaceDetection) -> Float? {
        guard face.keypoints.count >= 2 else { return nil }
        return RotatedSquare.angle(from: face.keypoints[0], to: face.keypoints[1])
    }

    /// The picture's tilt (radians, whole degrees, clockwise as the faces'
    /// roll) shown by `faces`, or nil when they show none.
    package static func estimate(_ faces: [FaceDetection]) -> Float? {
        let rolls = faces.compactMap { face -> Float? in
            guard face.score >= voterMinScore, face.keypoints.count >= 2, let roll = roll(of: face), abs(roll) <= largestRoll else { return nil }
            let eyes = face.keypoints[0], other = face.keypoints[1]
            let distance = ((eyes.x - other.x) * (eyes.x - other.x) + (eyes.y - other.y) * (eyes.y - other.y)).squareRoot()
            return distance >= voterMinEyeDistance ? roll : nil
        }.sorted()
        guard rolls.count >= minimumVoters else { return nil }
        let middle = rolls.count / 2
        let median = rolls.count % 2 == 1 ? rolls[middle] : (rolls[middle - 1] + rolls[middle]) / 2
        let agreeing = rolls.filter { abs($0 - median) <= agreement }.count
        guard agreeing * 2 > rolls.count, median - rolls[0] <= largestSpread, rolls[rolls.count - 1] - median <= largestSpread else { return nil }
        let degrees = (median * 180 / .pi).rounded()
        guard abs(degrees) >= (minimumTilt * 180 / .pi).rounded() else { return nil }
        return degrees * .pi / 180
    }
}
