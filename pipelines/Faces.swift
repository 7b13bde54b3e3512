import Pipeline

extension Pipelines {
    /// The detection of the default pipeline, which `facepipe detect` shares.
    public static let facesDetection = DetectFaces(.accurate, minFaceSize: .pixels(20), canvasArithmetic: .staticInt8)
    /// The confidence a face needs to be kept in the default pipeline: the
    /// detector's own floor. Accurate detection already holds a face only
    /// one detector found to that detector's bar (`UnconfirmedFaces.scored`);
    /// a face both found is kept from 0.5.
    public static let facesMinConfidence: Float = 0.5

    /// The default: every face from about 20 px wide, whatever the photo's
    /// size (accurate detection on an image pyramid), a confidence filter,
    /// landmarks and contours on the kept faces, annotation; on a video,
    /// each face keeps a `tracking_id` across the frames.
    public static let faces = Pipeline("faces",
                                       summary: "every face from 20 px (YuNet-s and BlazeFace together), landmarks + contours + pose on kept faces, annotated PNGs",
                                       rationale: "20 px is the smallest face found reliably at 1:1; a pixel floor finds it in a 4000-px photo as in a 640-px one (a fraction of the width would stop at 200 px there). YuNet-s finds real faces in crowds that BlazeFace misses, BlazeFace finds turned and grey faces YuNet misses; a face both find is kept, a face one finds must clear that detector's bar, and Face Mesh is asked about it where its presence output is reliable (docs/BENCHMARKS.md has the measurements).") {
        Decode()
        Orient()
        facesDetection
        FilterConfidence(atLeast: facesMinConfidence)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
        }
        Annotate()
        WriteOutputs()
    }.trackingFacesInVideo()
}
