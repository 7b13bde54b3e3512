import FaceAnalysis
import ImageCore

/// The face models as one worker uses them: detection and landmarks.
/// One instance per worker (it owns interpreters and their arenas), created
/// on the worker's first face stage and reused for every later image.
public protocol FaceEngine: AnyObject {
    func detect(in image: RGBImage, options: FaceDetectionOptions) throws -> [FaceDetection]
    /// The mesh (and, with `iris`, the irises and eye contours) of a detected
    /// face; nil when the landmark model says no face is there.
    func landmarks(for detection: FaceDetection, in image: RGBImage, iris: Bool) throws -> FaceLandmarks?
}

/// How a worker obtains its ``FaceEngine``. Part of the run configuration,
/// not of the pipeline: any engine that gives the same results may be used.
public struct FaceEngineFactory: Sendable {
    let make: @Sendable (SharedResources) throws -> any FaceEngine

    /// - Parameter make: builds one worker's engine; load files once through
    ///   `SharedResources.value(_:make:)` and share them read-only.
    public init(_ make: @escaping @Sendable (SharedResources) throws -> any FaceEngine) {
        self.make = make
    }
}

/// A face stage ran but the run has no face engine configured.
public struct FaceEngineUnavailable: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "no face inference engine is configured for this run (RunConfiguration.faceEngine)"
    }
}

extension StageContext {
    /// This worker's face engine, created on first use.
    public func faceEngine() throws -> any FaceEngine {
        guard let factory = shared.faceEngineFactory else { throw FaceEngineUnavailable() }
        return try workerResource("facepipe.face-engine") { try factory.make(shared) }
    }
}

extension FaceEngineFactory {
    /// The engine the `facepipe` command uses: FaceAnalysis's analyzer over the
    /// built-in inference engine. Nil until that analyzer is part of the build;
    /// face stages then fail per entry with ``FaceEngineUnavailable``.
    public static let builtIn: FaceEngineFactory? = nil
}
