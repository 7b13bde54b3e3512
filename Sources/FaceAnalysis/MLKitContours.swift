import ImageCore

/// ML Kit's 15 face contours (133 points), derived from the mesh, in pixels.
///
/// Each contour is a fixed list of mesh indices (`FaceMeshTopology`), with
/// ML Kit's point counts: face oval 36 (clockwise from the top of the
/// forehead), eyebrow tops and bottoms 5 each, eyes 16 each, upper lip top
/// 11 (corner to corner), upper lip bottom 9, lower lip top 9, lower lip
/// bottom 9 (without corners), nose bridge 2 (168, 4), nose bottom 3
/// (98, 2, 327), cheeks 1 each (425, 205). Open lines run image-left to
/// image-right for an upright frontal face. Sides are the subject's.
public struct MLKitContours: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case face, leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom
        case leftEye, rightEye, upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom
        case noseBridge, noseBottom, leftCheek, rightCheek

        /// Whether the contour is a closed loop (the face oval and the eyes)
        /// rather than an open line.
        public var isClosed: Bool { self == .face || self == .leftEye || self == .rightEye }

        /// The mesh indices of this contour.
        public var meshIndices: [Int] {
            let t = FaceMeshTopology.self
            return switch self {
            case .face: t.faceOval
            case .leftEyebrowTop: t.leftEyebrowTop
            case .leftEyebrowBottom: t.leftEyebrowBottom
            case .rightEyebrowTop: t.rightEyebrowTop
            case .rightEyebrowBottom: t.rightEyebrowBottom
            case .leftEye: t.leftEye
            case .rightEye: t.rightEye
            case .upperLipTop: t.upperLipOuter
            case .upperLipBottom: t.upperLipInner
            case .lowerLipTop: t.lowerLipInner
            case .lowerLipBottom: t.lowerLipOuter
            case .noseBridge: [168, 4]
            case .noseBottom: [98, 2, 327]
            case .leftCheek: [t.leftCheekCentre]
            case .rightCheek: [t.rightCheekCentre]
            }
        }
    }

    /// Points per contour, in `Kind.allCases` order.
    public var contours: [Kind: [Point]]

    public init(_ landmarks: FaceLandmarks) {
        var contours: [Kind: [Point]] = [:]
        for kind in Kind.allCases { contours[kind] = kind.meshIndices.map(landmarks.point) }
        self.contours = contours
    }

    public subscript(_ kind: Kind) -> [Point] { contours[kind] ?? [] }

    /// All 133 points in `Kind.allCases` order.
    public var allPoints: [Point] { Kind.allCases.flatMap { self[$0] } }
}
