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
/// their own way, which gives no common tilt. Where all the votes show
/// none, the faces from `largeVoterMinWidth` px wide scoring from
/// `largeVoterMinScore` vote alone, one of them enough, under the same
/// rule with `largeVoterMinimumTilt` (`largeVoterMinWidth` says why).
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
    /// Faces at least this wide (px) vote alone where all the votes show no
    /// tilt. A small face's eye line reads close to upright whatever the
    /// picture's turn (the detectors' keypoints lean to their upright
    /// template): on `make eval-turned`'s composite pictures turned 30°, faces
    /// 32–55 px wide read −1° to 6° beside faces from 60 px reading 18–33°,
    /// so the median fell under the turn and the votes did not agree, and
    /// a picture with one face never had two votes. With the large faces
    /// voting alone a turn is read in 44 / 48 of the 95 composite pictures
    /// turned −30° / +30° (23 / 29 before), 13 / 15 of the 20 crowd pictures
    /// (12 / 13), and in 3 of the bench archive's 394 upright pictures (2).
    package static let largeVoterMinWidth: Float = 60
    /// Large faces scoring at least this vote alone: one vote decides a
    /// second search of the whole picture. Large boxes scoring 0.6–0.7
    /// were often no face but the person or group around one (a 1360-px
    /// box at 0.70 beside a 179-px face at −19°, a 465-px one at 0.62
    /// beside a 275-px face at −27°, in composites turned 30° whose tilt
    /// they hid), which 0.8 kept from voting; since such boxes do not vote
    /// at all (``NestedFaces``), 0.7 reads one more turn: `make
    /// eval-turned` loses 10 composite faces at −30° against 11 at 0.8 (12
    /// at 0.6) and the same elsewhere, the crowd set's recall at −30° is
    /// 0.966 against 0.958, and a turn is read in 2 of the bench archive's
    /// 400 upright pictures (1 at 0.8).
    package static let largeVoterMinScore: Float = 0.7
    /// Smallest tilt the large faces show voting alone (radians): one
    /// person's head is often tilted 12–20° in an upright photo, and each
    /// such picture would be searched twice (18° fired on 5 bench pictures,
    /// 15° on 8). One face cannot tell a head tilted more than this from a
    /// turned picture: `make clips`' upright enter-leave clip (t1's people,
    /// heads to 32°) takes 12–13 % longer to anonymize than with two votes
    /// needed, which is the price of finding the turned portraits' faces.
    package static let largeVoterMinimumTilt: Float = 20 * .pi / 180
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
        let votes = faces.compactMap { face -> (roll: Float, face: FaceDetection)? in
            guard face.score >= voterMinScore, face.keypoints.count >= 2, let roll = roll(of: face), abs(roll) <= largestRoll else { return nil }
            let eyes = face.keypoints[0], other = face.keypoints[1]
            let distance = ((eyes.x - other.x) * (eyes.x - other.x) + (eyes.y - other.y) * (eyes.y - other.y)).squareRoot()
            return distance >= voterMinEyeDistance ? (roll, face) : nil
        }
        if let tilt = commonTilt(votes.map(\.roll), minimumVoters: minimumVoters, minimumTilt: minimumTilt) { return tilt }
        let large = votes.filter { $0.face.box.width >= largeVoterMinWidth && $0.face.score >= largeVoterMinScore }
        return commonTilt(large.map(\.roll), minimumVoters: 1, minimumTilt: largeVoterMinimumTilt)
    }

    /// The median of `rolls` in whole degrees (radians) when at least
    /// `minimumVoters` vote, more than half lie within `agreement` of it,
    /// none further than `largestSpread`, and it is at least `minimumTilt`.
    private static func commonTilt(_ unsorted: [Float], minimumVoters: Int, minimumTilt: Float) -> Float? {
        let rolls = unsorted.sorted()
        guard rolls.count >= minimumVoters, !rolls.isEmpty else { return nil }
        let middle = rolls.count / 2
        let median = rolls.count % 2 == 1 ? rolls[middle] : (rolls[middle - 1] + rolls[middle]) / 2
        let agreeing = rolls.filter { abs($0 - median) <= agreement }.count
        guard agreeing * 2 > rolls.count, median - rolls[0] <= largestSpread, rolls[rolls.count - 1] - median <= largestSpread else { return nil }
        let degrees = (median * 180 / .pi).rounded()
        guard abs(degrees) >= (minimumTilt * 180 / .pi).rounded() else { return nil }
        return degrees * .pi / 180
    }
}
