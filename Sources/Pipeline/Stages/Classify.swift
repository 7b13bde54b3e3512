import FaceAnalysis

/// Smiling and eyes-open probabilities (0…1) from the mesh geometry.
public struct Classify: Stage {
    public init() {}
    public var definition: StageDefinition { StageDefinition("classify") }

    public func process(_ slot: FaceSlot<FacePhase.Landmarked>, context: StageContext) throws -> FaceSlot<FacePhase.Landmarked> {
        var out = slot
        if let landmarks = slot.landmarks {
            let c = FaceClassification(landmarks)
            out.face.classification = FaceScores(smiling: c.smiling, leftEyeOpen: c.leftEyeOpen, rightEyeOpen: c.rightEyeOpen)
        }
        return out
    }
}
