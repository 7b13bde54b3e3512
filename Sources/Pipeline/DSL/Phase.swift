/// Marker types that say how far an image has come through a pipeline.
/// They exist only at compile time: `Frame<Phase.Detected>` and
/// `Frame<Phase.Upright>` hold the same data, but only the first is accepted
/// by stages that need detections.
public enum Phase {
    /// Bytes of an archive entry, not decoded yet.
    public enum Encoded {}
    /// Decoded pixels as stored (EXIF orientation not applied).
    public enum Decoded {}
    /// Upright pixels (EXIF orientation applied).
    public enum Upright {}
    /// Upright pixels with detected faces.
    public enum Detected {}
    /// Pixels with annotations drawn.
    public enum Annotated {}
}

/// Marker types for the per-face block of ``ForEachFace``.
public enum FacePhase {
    /// A detected face: box, score, keypoints.
    public enum Detected {}
    /// A face with its landmarks (mesh, iris, derived points).
    public enum Landmarked {}
}
