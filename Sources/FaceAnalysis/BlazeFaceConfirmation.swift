import ImageCore

/// Where accurate mode asks BlazeFace about YuNet's faces
/// (`DetectorMode.accurate`, docs/FACE-RESULTS.md).
///
/// YuNet-s searches the whole picture; BlazeFace (short range, 128×128)
/// runs only on a square around each YuNet candidate, scaled so that the
/// candidate's face is `facePixels` wide in the model's input, and on the
/// whole frame (letterboxed from YuNet's coarsest level) for faces that
/// fill the picture. A BlazeFace face from a candidate's square counts only
/// where it overlaps that candidate (IoU ≥ `DetectorFusion.pairingIoU`): it
/// confirms, it never adds a face of its own. `DetectorFusion` then pairs
/// the two lists as before.
///
/// Measured (2026-11-27, `make eval`, `make eval-crowd`; docs/BENCHMARKS.md):
/// BlazeFace's pyramid over every pixel, which this replaces, was about 55 %
/// of `faces`' CPU, and the faces only it found are found here too where
/// YuNet gives them any score from `candidateMinScore`: on the composite
/// set 219 of 230 faces ≥ 20 px either way. Of the squares' scales tried
/// (the face 30, 40, 48, 56 or 64 px in the 128-px input), 56 confirmed
/// the most faces: at 40, faces of 100 px and more that BlazeFace's pyramid
/// had paired went unconfirmed.
package enum BlazeFaceConfirmation {
    /// YuNet faces from this score are candidates: confirmed ones are kept
    /// (a face both detectors see), the others must clear
    /// `DetectorFusion.yunetAloneMinScore`. On the bench archive, 9.3
    /// candidates a picture from 0.2, 2.3 from 0.5 (2026-12-07), most of
    /// the others large boxes `asks(about:)` passes over. 0.2 is
    /// libfacedetection's own floor, and the floor accurate mode has run
    /// at: 0.15 was chosen on 2026-11-27 (f472ba9), but YuNet-s's decoder
    /// stopped at 0.2 until ae236df. Measured then: from 0.15 the composite
    /// set keeps the same faces as built and 0–2 more of its 100 faces of 20–64 px
    /// when moved by a few pixels (`make eval-shifts`), for 3–5 % more of
    /// `faces`' CPU (`faces` 1.15× MediaPipe instead of 1.21×).
    package static let candidateMinScore: Float = 0.2
    /// Candidates at least this wide (their box's longer side, picture
    /// pixels; 100 px and more on YuNet-s's coarser level, 4 times smaller)
    /// are asked about from `largeCandidateMinScore`.
    package static let largeCandidateWidth: Float = 400
    /// A face that large is one YuNet-s sees whole and scores high; its
    /// boxes that large from 0.2 to 0.5 are boxes shifted off a face it
    /// scores higher beside them, or no face. Measured (2026-12-07, main
    /// at e8b1570, docs/BENCHMARKS.md): of `make eval`'s 1389 candidates,
    /// 989 were that large and under 0.5, and 9 of them were confirmed:
    /// seven shifted copies of a face a surer candidate holds (IoU 0.21–0.45
    /// with it) and two false boxes around whole people (`exif-10`,
    /// `large-07`); on the bench archive 2410 of 3719, 78 confirmed, each a
    /// shifted copy. Reading their squares was about 8 % of `faces`' CPU.
    /// Faces of about 100 px that YuNet-s scores 0.24–0.28 (`exif-08`,
    /// `large-00`) are found only because BlazeFace is asked, hence 400, not
    /// the coarser level's 96.
    package static let largeCandidateMinScore: Float = 0.5

    /// Whether BlazeFace reads a square around `candidate`: every candidate
    /// from `candidateMinScore`, a large one from `largeCandidateMinScore`.
    /// A candidate not asked about stays in `DetectorFusion`'s YuNet list,
    /// unconfirmed.
    package static func asks(about candidate: FaceDetection) -> Bool {
        candidate.box.longerSide < largeCandidateWidth || candidate.score >= largeCandidateMinScore
    }

    /// A BlazeFace face confirms a candidate YuNet scores under
    /// `DetectionDecoder.defaultMinScore` from this score (0.6 and 0.65
    /// confirmed rocket nose cones and clouds on the composite set)…
    package static let confirmingMinScore: Float = 0.7
    /// …and a candidate YuNet scores from `DetectionDecoder.defaultMinScore`
    /// from this one, the floor BlazeFace's pyramid paired YuNet's faces at
    /// before (blurred faces scaled up 2×, which BlazeFace scores 0.6–0.7
    /// and Face Mesh's presence rejects, were lost at 0.7).
    package static let confirmingMinScoreOfAFace: Float = 0.6

    /// The BlazeFace score that confirms `candidate`.
    package static func confirmingMinScore(for candidate: FaceDetection) -> Float {
        candidate.score >= DetectionDecoder.defaultMinScore ? confirmingMinScoreOfAFace : confirmingMinScore
    }
    /// BlazeFace on the whole frame, for faces that fill the picture
    /// (`DetectorFamily.blazeFaceCanvasMinScore`, as the pyramid's whole frame).
    package static let wholeFrameMinScore: Float = DetectorFamily.blazeFaceCanvasMinScore
    /// The candidate's face width (its box's longer side) in the 128-px input.
    package static let facePixels: Float = 56

    /// The square of the picture BlazeFace reads for `candidate` (its box's
    /// centre; may reach past the picture, which reads as black).
    package static func square(around candidate: Rect, inputSize: Int) -> SquareRegion {
        let side = candidate.longerSide * Float(inputSize) / facePixels
        return SquareRegion(x: candidate.x + candidate.width / 2 - side / 2, y: candidate.y + candidate.height / 2 - side / 2, side: side)
    }
}
