/// What a canvas-pyramid search, and accurate mode's confirmation, tell an
/// observer as they run (set on `FaceAnalyzer.searchObserver`; the
/// `facepipe-probes` detector probes and `DetectionTraceTests` use
/// `DetectionTrace`, in `_TestSupport`, which times each event). Nothing is
/// recorded when none is set.
package protocol PyramidSearchObserver: AnyObject {
    /// When set, every canvas also reports its detections from this score
    /// up, before NMS (``lowScore(level:stride:detection:)``).
    var lowScoreFloor: Float? { get }
    /// A search over `plan` starts.
    func began(_ plan: SearchPlan)
    /// The next level image was made.
    func madeLevelImage()
    /// A canvas ran (or was `skipped` for want of contrast) and kept
    /// `detections` (after its NMS and edge rule), in source pixels.
    func ranCanvas(_ canvas: SearchPlan.Tile, kept detections: [FaceDetection], skipped: Bool)
    /// The whole frame ran.
    func ranWholeFrame()
    /// A canvas detection from `lowScoreFloor` up, before NMS, in source
    /// pixels, with the stride of the output layer that found it.
    func lowScore(level: Int, stride: Int, detection: FaceDetection)
    /// Accurate mode's confirmation came to YuNet-s's `candidate` and
    /// `asked` BlazeFace about it on its square, or left it unconfirmed
    /// without a look (`BlazeFaceConfirmation.asks(about:)`).
    func confirming(_ candidate: FaceDetection, asked: Bool)
}

extension PyramidSearchObserver {
    package func confirming(_ candidate: FaceDetection, asked: Bool) {}
}
