import Foundation

/// ML Kit's classifications from mesh geometry, each a probability 0…1.
///
/// Method (distances in 3D mesh space, so turning the head changes them little):
/// - `smiling`: mouth width (61–291) over the outer-eye-corner distance
///   (33–263). A neutral mouth is ~0.55–0.62 of it, a smile widens it to
///   0.7–0.8. Probability = σ(`smileSlope` · (ratio − `smileMidpoint`)) with
///   slope 25 and midpoint 0.68 (chosen on astronaut (smiling, 0.78),
///   takeo and lenna (neutral, 0.60 and 0.52)).
/// - `leftEyeOpen` / `rightEyeOpen`: eye aspect ratio, lid gap (386–374,
///   159–145) over eye width (362–263, 33–133); open eyes measure 0.25–0.42,
///   closed ones below 0.12. Probability = σ(40 · (ratio − 0.17)).
/// Sides are the subject's.
public struct FaceClassification: Sendable, Hashable, Codable {
    public var smiling: Float
    public var leftEyeOpen: Float
    public var rightEyeOpen: Float

    public static let smileSlope: Float = 25, smileMidpoint: Float = 0.68
    public static let eyeSlope: Float = 40, eyeMidpoint: Float = 0.17

    public init(smiling: Float, leftEyeOpen: Float, rightEyeOpen: Float) {
        self.smiling = smiling; self.leftEyeOpen = leftEyeOpen; self.rightEyeOpen = rightEyeOpen
    }

    public init(_ landmarks: FaceLandmarks) {
        let m = landmarks.mesh
        guard m.count == FaceLandmarks.meshPointCount else { self.init(smiling: 0, leftEyeOpen: 0, rightEyeOpen: 0); return }
        func d(_ a: Int, _ b: Int) -> Float {
            let dx = m[a].x - m[b].x, dy = m[a].y - m[b].y, dz = m[a].z - m[b].z
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        let ratios = Self.ratios(mouthWidth: d(61, 291), eyeSpan: d(33, 263),
                                 leftGap: d(386, 374), leftWidth: d(362, 263), rightGap: d(159, 145), rightWidth: d(33, 133))
        self.init(smiling: Self.logistic(ratios.smile, Self.smileSlope, Self.smileMidpoint),
                  leftEyeOpen: Self.logistic(ratios.left, Self.eyeSlope, Self.eyeMidpoint),
                  rightEyeOpen: Self.logistic(ratios.right, Self.eyeSlope, Self.eyeMidpoint))
    }

    static func ratios(mouthWidth: Float, eyeSpan: Float, leftGap: Float, leftWidth: Float,
                       rightGap: Float, rightWidth: Float) -> (smile: Float, left: Float, right: Float) {
        func ratio(_ a: Float, _ b: Float) -> Float { b > 1e-6 && a.isFinite && b.isFinite ? a / b : 0 }
        return (ratio(mouthWidth, eyeSpan), ratio(leftGap, leftWidth), ratio(rightGap, rightWidth))
    }

    /// σ(slope · (x − midpoint)), finite for any input.
    static func logistic(_ x: Float, _ slope: Float, _ midpoint: Float) -> Float {
        guard x.isFinite else { return 0 }
        let t = min(max(slope * (x - midpoint), -30), 30)
        return 1 / (1 + exp(-t))
    }
}
