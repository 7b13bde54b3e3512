import FaceAnalysis
import ImageCore

/// Finds faces with YuNet-s and MediaPipe's BlazeFace models (`DetectorMode`):
/// box, confidence, keypoints and the detectors that found it, per face, in
/// upright-image pixels. BlazeFace's box for a face turned in-plane past
/// 10° is grown with its roll (`TurnedFaceBox`), which matches both a label
/// of the face's own size and one drawn around the turned face.
public struct DetectFaces: Stage {
    public var options: FaceDetectionOptions

    /// - Parameters:
    ///   - mode: `.accurate` (YuNet-s and BlazeFace's pyramid, merged: every
    ///     face from `minFaceSize`), `.fast` (short range, faces near the
    ///     camera), `.pyramid` (BlazeFace's short range on an image pyramid
    ///     and on the whole frame; full range on the whole frame of images
    ///     too small for a pyramid), `.yunet`, `.sparse`.
    ///   - minFaceSize: the smallest face to report (the box's longer side)
    ///     and, in `.accurate`, `.pyramid` and `.yunet` modes, to search
    ///     for: `.pixels(20)` (a face at least 20 px, whatever the photo's
    ///     size) or ML Kit's `.fraction(0.1)` of the image width; a float
    ///     literal is a fraction.
    ///   - minScore: detector confidence floor (0…1; below 0.5 acts as 0.5).
    ///   - canvasArithmetic: `.int8FirstLayer` runs the detector's first
    ///     layer on `.accurate` mode's pyramid canvases in int8, `.int8`
    ///     its block projections too (faster, slightly different scores;
    ///     see `DetectorArithmetic`).
    ///   - unconfirmed: in `.accurate` mode, whether a face only one
    ///     detector found must clear that detector's own bar (`.scored`) or
    ///     is kept from `minScore` (`.all`, recall first).
    public init(_ mode: DetectorMode = .accurate, minFaceSize: FaceSize = .pixels(20), minScore: Float = 0.5,
                canvasArithmetic: DetectorArithmetic = .float32, unconfirmed: UnconfirmedFaces = .scored) {
        options = FaceDetectionOptions(mode: mode, minFaceSize: minFaceSize, minScore: minScore, canvasArithmetic: canvasArithmetic,
                                       unconfirmed: unconfirmed)
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("mode", \.options.mode),
         StageOption("min-face-size", \.options.minFaceSize),
         StageOption("min-score", \.options.minScore, decimals: 4),
         StageOption("canvas-arithmetic", \.options.canvasArithmetic),
         StageOption("unconfirmed", \.options.unconfirmed)]
    }

    public var definition: StageDefinition {
        StageDefinition("detect-faces", optionsOf: self, models: Self.models(for: options))
    }

    public var caching: StageCaching { .records }

    /// The models a mode runs: those of the detector families its
    /// composition runs (`DetectorComposition.models`).
    static func models(for options: FaceDetectionOptions) -> [FaceModel] {
        options.composition.models
    }

    public func validate() throws(PipelineError) {
        do {
            try options.minFaceSize.validate()
        } catch {
            throw .invalidOption(stage: "detect-faces", option: "min-face-size", reason: Self.reason(error))
        }
        do {
            try options.validate()
        } catch {
            throw .invalidOption(stage: "detect-faces", option: "min-score", reason: Self.reason(error))
        }
    }

    /// The message of an option error, without FaceAnalysis's prefix.
    private static func reason(_ error: FaceAnalysisError) -> String {
        if case let .invalidOption(message) = error { return message }
        return error.description
    }

    public func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
        let detections = try context.faceEngine().detect(in: frame.image, options: options)
        var out = frame.advanced(to: Phase.Detected.self)
        out.record.detectionRan = true
        out.record.faces = detections.enumerated().map { i, detection in
            FaceRecord(face: i, confidence: detection.score, box: detection.box, keypoints: detection.keypoints,
                       foundBy: detection.foundBy)
        }
        return out
    }
}
