import FaceAnalysis
import ImageCore

/// The face models as one worker uses them: detection and landmarks.
/// One instance per worker (it owns interpreters and their arenas), created
/// on the worker's first face stage and reused for every later image.
public protocol FaceEngine: AnyObject {
    func detect(in image: RGBImage, options: FaceDetectionOptions) throws -> [FaceDetection]
    /// The mesh (and, with `iris`, the irises and eye contours) of a detected
    /// face, or why there is none (the landmark model says no face is there).
    func landmarkOutcome(for detection: FaceDetection, in image: RGBImage, iris: Bool) throws -> LandmarkOutcome
}
