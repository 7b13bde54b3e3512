import FaceAnalysis
import ImageCore

/// One kept face with the upright image it was found in: what the stages
/// inside ``ForEachFace`` receive. `P` is a ``FacePhase`` marker.
public struct FaceSlot<P>: Sendable {
    /// The upright image (shared, not copied).
    public let image: RGBImage
    public var face: FaceRecord
    /// The full landmark set once ``Landmarks`` ran (nil when the landmark
    /// model found no face in the region). Derived stages read it; what the
    /// outputs need is copied into `face`.
    public var landmarks: FaceLandmarks?

    public init(image: RGBImage, face: FaceRecord, landmarks: FaceLandmarks? = nil) {
        self.image = image
        self.face = face
        self.landmarks = landmarks
    }

    /// The same face under another phase marker.
    public func advanced<Q>(to: Q.Type = Q.self) -> FaceSlot<Q> {
        FaceSlot<Q>(image: image, face: face, landmarks: landmarks)
    }
}

/// Plumbing: lets ``ForEachFace`` read the face back whatever the block's last phase.
public protocol _FaceSlotValue: Sendable {
    var face: FaceRecord { get }
}
extension FaceSlot: _FaceSlotValue {}
