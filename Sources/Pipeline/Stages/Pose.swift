import FaceAnalysis

/// Head pose (roll, yaw, pitch in degrees, ML Kit signs) from the mesh.
public struct Pose: Stage {
    public init() {}
    public var definition: StageDefinition { StageDefinition("pose") }

    public func process(_ slot: FaceSlot<FacePhase.Landmarked>, context: StageContext) throws -> FaceSlot<FacePhase.Landmarked> {
        var out = slot
        if let landmarks = slot.landmarks {
            let pose = HeadPose(landmarks)
            out.face.pose = HeadAngles(roll: pose.roll, yaw: pose.yaw, pitch: pose.pitch)
        }
        return out
    }
}
