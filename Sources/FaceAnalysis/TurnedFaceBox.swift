import Foundation
import ImageCore

/// The box facepipe reports for a face turned in-plane.
///
/// BlazeFace's box keeps the face's own size whatever the roll (0.92–1.01×
/// the face's width at 0–40° in `make eval-rotation`), while a label drawn
/// around a turned face is the axis-aligned box around it, `|cos ρ| +
/// |sin ρ|` times as wide at roll ρ (YuNet, trained on WIDER FACE, grows
/// its boxes with the roll: 0.88× the face's width at 0°, 0.96× at 30°).
/// Against a box of side `s·k` on the same centre, a label of the face's
/// own size `s` scores IoU `1/k²` and the one around the turned face
/// `k²/(|cos ρ| + |sin ρ|)²`; `k = √(|cos ρ| + |sin ρ|)` makes the two
/// equal (0.707 or more). So the reported box is the detector's, scaled
/// about its centre by that `k`, with the roll taken less `deadZone`: up to
/// 10° both labels already match a box of the face's own size at IoU ≥
/// 0.75, and a small face's eye keypoints are a pixel or so from where they
/// should be (several degrees for a 26-px face), which must not grow
/// upright faces' boxes. With it, both labels match the reported box at
/// IoU ≥ 0.68 at any roll.
///
/// The roll is the eye line of the detector's keypoints 0 → 1, as Face
/// Mesh's region of interest takes it (`RotatedSquare.faceMeshROI`, which
/// undoes the growth: Face Mesh sees MediaPipe's region), folded to 0–45°
/// from the nearest quarter turn.
///
/// `make eval-rotation` measures it (`docs/BENCHMARKS.md`, in-plane rotation).
package enum TurnedFaceBox {
    /// Rolls up to this many radians from a quarter turn keep the detector's box.
    package static let deadZone: Float = 10 * .pi / 180

    /// The scale of the reported box over the detector's at roll `roll` (radians).
    package static func growth(roll: Float) -> Float {
        let quarter = Float.pi / 2
        var folded = abs(roll).truncatingRemainder(dividingBy: quarter)
        folded = min(folded, quarter - folded)
        let turned = max(folded - deadZone, 0)
        return (cos(turned) + sin(turned)).squareRoot()
    }

    /// The growth for a detection with BlazeFace's keypoints (1 without the two eyes).
    package static func growth(keypoints: [Point]) -> Float {
        guard keypoints.count >= 2 else { return 1 }
        return growth(roll: RotatedSquare.angle(from: keypoints[0], to: keypoints[1]))
    }

    /// The reported box for the detector's `box` and keypoints: scaled by
    /// `growth(keypoints:)` about its centre.
    package static func box(_ box: Rect, keypoints: [Point]) -> Rect {
        let k = growth(keypoints: keypoints)
        guard k != 1 else { return box }
        let width = box.width * k, height = box.height * k
        return Rect(x: box.centerX - width / 2, y: box.centerY - height / 2, width: width, height: height)
    }

    /// The detector's longer box side for a reported detection (the size
    /// Face Mesh's region of interest is made from).
    package static func detectorSide(of detection: FaceDetection) -> Float {
        max(detection.box.width, detection.box.height) / growth(keypoints: detection.keypoints)
    }
}
