import FaceAnalysis

/// Capture quality (0…1: sharpness, exposure, size, pose), meant to compare
/// captures of the same face. Uses the pose when ``Pose`` ran before it.
public struct Quality: Stage {
    public init() {}
    public var definition: StageDefinition { StageDefinition("quality") }

    public func process(_ slot: FaceSlot<FacePhase.Landmarked>, context: StageContext) throws -> FaceSlot<FacePhase.Landmarked> {
        var out = slot
        let pose = slot.face.pose.map { HeadPose(roll: $0.roll, yaw: $0.yaw, pitch: $0.pitch) }
        out.face.quality = CaptureQuality(image: slot.image, box: slot.face.box, pose: pose).score
        return out
    }
}
