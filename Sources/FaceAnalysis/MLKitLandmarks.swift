import ImageCore

/// ML Kit's ten face landmarks, derived from the mesh (pixels, subject's sides).
///
/// Mapping (mesh indices, see `FaceMeshTopology`):
/// - `leftEye` / `rightEye`: iris centre (mesh eye-corner/lid mean without iris)
/// - `leftEar` / `rightEar`: face-oval points at ear height, 454 / 234 (the mesh
///   has no ears; ML Kit's ear is the tip–lobe midpoint, which lies just outside)
/// - `leftCheek` / `rightCheek`: midpoint of the outer eye corner and the mouth
///   corner, (263 + 291)/2 and (33 + 61)/2, ML Kit's definition
/// - `noseBase`: 2 (where the nose meets the upper lip, between the nostrils)
/// - `mouthLeft` / `mouthRight`: outer mouth corners 291 / 61
/// - `mouthBottom`: centre of the lower lip's outer edge, 17
public struct MLKitLandmarks: Sendable, Hashable, Codable {
    public var leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek: Point
    public var noseBase, mouthLeft, mouthRight, mouthBottom: Point

    public init(_ landmarks: FaceLandmarks) {
        let t = FaceMeshTopology.self
        func mid(_ a: Int, _ b: Int) -> Point { landmarks.mean([a, b]) }
        leftEye = landmarks.leftEyeCenter
        rightEye = landmarks.rightEyeCenter
        leftEar = landmarks.point(t.leftEarProxy)
        rightEar = landmarks.point(t.rightEarProxy)
        leftCheek = mid(t.leftEyeCorners.outer, t.mouthOuterCorners.left)
        rightCheek = mid(t.rightEyeCorners.outer, t.mouthOuterCorners.right)
        noseBase = landmarks.point(t.noseBase)
        mouthLeft = landmarks.point(t.mouthOuterCorners.left)
        mouthRight = landmarks.point(t.mouthOuterCorners.right)
        mouthBottom = landmarks.point(17)
    }

    /// ML Kit's names of the ten points, in ML Kit's `FaceLandmark` type order
    /// (the order of `named` and of the `mlkit_landmarks` JSON group).
    public static let names = ["mouthBottom", "leftCheek", "leftEar", "leftEye", "mouthLeft",
                               "noseBase", "rightCheek", "rightEar", "rightEye", "mouthRight"]

    /// The ten points with ML Kit's names, in ML Kit's `FaceLandmark` type order.
    public var named: [(name: String, point: Point)] {
        Array(zip(Self.names, [mouthBottom, leftCheek, leftEar, leftEye, mouthLeft,
                               noseBase, rightCheek, rightEar, rightEye, mouthRight]))
    }
}
