import Foundation

/// What the landmark models say about one detected face.
public enum LandmarkOutcome: Sendable {
    /// Face Mesh (and Iris, when asked for) found the face.
    case found(FaceLandmarks)
    /// Face Mesh's face-presence output says the region holds no face:
    /// MediaPipe's own second opinion on a detection (presence ≤ 0.5).
    case notAFace(presence: Float)
    /// The region around the detection cannot be sampled (degenerate box,
    /// non-finite numbers), or the mesh came out non-finite.
    case unusableRegion

    /// The landmarks, when found.
    public var landmarks: FaceLandmarks? {
        if case let .found(landmarks) = self { landmarks } else { nil }
    }

    /// Why a face has no landmarks, as a manifest `rejection` reason; nil when found.
    public var rejectionReason: String? {
        switch self {
        case .found: nil
        case let .notAFace(presence):
            "landmarks: face presence \(String(format: "%.2f", presence)) < \(String(format: "%.1f", FaceLandmarks.minimumPresence))"
        case .unusableRegion: "landmarks: the face region cannot be sampled"
        }
    }
}
