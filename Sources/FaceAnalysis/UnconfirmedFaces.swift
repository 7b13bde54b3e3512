/// In `DetectorMode.accurate`, what happens to a face only one of the two
/// detectors found (``DetectorFusion``).
public enum UnconfirmedFaces: String, Sendable, Codable, CaseIterable {
    /// Kept when it clears that detector's own bar: YuNet ≥
    /// ``DetectorFusion/yunetAloneMinScore``, BlazeFace ≥
    /// ``DetectorFusion/blazeFaceAloneMinScore``; and Face Mesh's presence
    /// is asked as a second opinion when landmarks run
    /// (``FaceDetection/needsSecondOpinion``). Measured on `make eval` and
    /// `make eval-crowd` (docs/BENCHMARKS.md): precision ≥ 0.96 on both
    /// sets with every face of the union kept that either detector scores
    /// high. A face whose box holds a much smaller face that scores higher
    /// is dropped (``NestedFaces``).
    case scored
    /// Every face either detector scores at or above `minScore` is kept:
    /// recall first, for redaction. BlazeFace's pyramid searches every
    /// pixel too, its canvas faces under its own floor kept where YuNet-s
    /// re-reads them (``RecallReread``).
    case all
}
