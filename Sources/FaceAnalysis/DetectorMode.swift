/// Which detector and search strategy `FaceAnalyzer.detect` uses (ML Kit's
/// `performanceMode`, extended): MediaPipe's BlazeFace models, or YuNet-s.
public enum DetectorMode: String, Sendable, Codable, CaseIterable {
    /// `face_detection_short_range` (128×128) on the whole frame: faces
    /// within about 2 m that fill a good part of the picture.
    case fast
    /// Both detector families, for every face from the size `minFaceSize`
    /// asks for: YuNet-s searches the picture as in `.yunet` (its stride-8
    /// heads are made for 10–20 px faces, and it finds real faces in crowds
    /// that BlazeFace misses), keeping candidates from a low score; BlazeFace
    /// looks at a square around each candidate and at the whole frame, and
    /// the two are merged by ``DetectorFusion``: a face both see is kept
    /// (also a low-scoring YuNet candidate BlazeFace confirms, as grey or
    /// turned faces often are), a face one finds must clear that detector's
    /// own bar (``UnconfirmedFaces``). The default of facepipe's pipelines.
    case accurate
    /// For large images, `face_detection_short_range` on an image pyramid
    /// down to the size `minFaceSize` asks for, each level covered by a few
    /// canvases of up to 384×384 that the (fully convolutional) detector
    /// reads in one pass each, and on the whole frame (128×128), merged by
    /// weighted NMS. Finds small faces in large images at a cost
    /// proportional to the pixels searched. Images too small for a pyramid:
    /// `face_detection_full_range` (192×192) on the whole frame. MediaPipe's
    /// models only (facepipe's `accurate` mode before YuNet).
    case pyramid
    /// `face_detection_full_range_sparse` (192×192) on the whole frame.
    case sparse
    /// YuNet-s (libfacedetection; docs/YUNET.md), made for small faces: at
    /// the picture's own resolution in tiles, then on copies 4× smaller
    /// each for larger faces (its `PyramidSearch`), merged by NMS. Scores are
    /// YuNet's, not BlazeFace's; keypoints are four (eyes, nose tip, mouth
    /// centre), with no tragions.
    case yunet
}

/// Detection options, ML Kit style.
public struct FaceDetectionOptions: Sendable, Hashable, Codable {
    public var mode: DetectorMode
    /// Smallest face to report: a fraction of the image width (ML Kit's
    /// `minFaceSize`, default 0.1) or pixels (see ``FaceSize``). Compared
    /// with the longer side of the detection box (BlazeFace's boxes are
    /// square; YuNet's are about 1.25 times taller than wide, as a face
    /// is). In `.accurate`, `.pyramid` and `.yunet` modes it also sets how
    /// fine the search goes.
    public var minFaceSize: FaceSize
    /// Detections below this confidence are dropped (MediaPipe's minimum
    /// detection confidence, default 0.5; values below 0.5 act as 0.5).
    public var minScore: Float
    /// The arithmetic of the search passes: BlazeFace's canvases in
    /// `.pyramid` mode and YuNet-s's block projections in `.accurate` and
    /// `.yunet` modes (see ``DetectorArithmetic``); default fp32.
    public var canvasArithmetic: DetectorArithmetic
    /// In `.accurate` mode, which faces only one of the two detectors found
    /// are kept (``UnconfirmedFaces``); default `.scored`.
    public var unconfirmed: UnconfirmedFaces

    public init(mode: DetectorMode = .fast, minFaceSize: FaceSize = .fraction(0.1), minScore: Float = 0.5,
                canvasArithmetic: DetectorArithmetic = .float32, unconfirmed: UnconfirmedFaces = .scored) {
        self.mode = mode
        self.minFaceSize = minFaceSize
        self.minScore = minScore
        self.canvasArithmetic = canvasArithmetic
        self.unconfirmed = unconfirmed
    }

    /// Checks ranges; `FaceAnalyzer.detect` calls it before any work.
    public func validate() throws(FaceAnalysisError) {
        try minFaceSize.validate()
        guard minScore.isFinite, minScore >= 0, minScore <= 1 else {
            throw .invalidOption("minScore must be in 0…1, got \(minScore)")
        }
    }
}
