import Foundation
import Inference

/// The five MediaPipe face models, loaded once and shared read-only by every
/// worker's `FaceAnalyzer`. Checking the files' SHA-256 is the caller's job
/// (the pipeline does it); this type checks that they exist, parse, and have
/// the tensor sizes the decoders need.
public struct FaceModels: Sendable {
    public let shortRange: Model
    public let fullRange: Model
    public let fullRangeSparse: Model
    public let faceMesh: Model
    public let iris: Model

    public static let faceMeshFile = "face_landmark.tflite"
    public static let irisFile = "iris_landmark.tflite"

    /// The file names looked up in the models directory.
    public static let requiredFiles = [
        DetectorConfiguration.shortRange.modelFile, DetectorConfiguration.fullRange.modelFile,
        DetectorConfiguration.fullRangeSparse.modelFile, faceMeshFile, irisFile,
    ]

    /// Loads every model from `directory` (e.g. `models/`).
    /// - Throws: `FaceAnalysisError.missingModel` naming the first absent
    ///   file, `.unexpectedModelShape` for a model with other tensors.
    public init(directory: URL) throws(FaceAnalysisError) {
        func load(_ file: String) throws(FaceAnalysisError) -> Model {
            let url = directory.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw .missingModel(file: file, directory: directory.path)
            }
            do { return try Model(contentsOf: url) } catch {
                throw .unexpectedModelShape(model: file, detail: "cannot load: \(error)")
            }
        }
        shortRange = try load(DetectorConfiguration.shortRange.modelFile)
        fullRange = try load(DetectorConfiguration.fullRange.modelFile)
        fullRangeSparse = try load(DetectorConfiguration.fullRangeSparse.modelFile)
        faceMesh = try load(Self.faceMeshFile)
        iris = try load(Self.irisFile)
        try Self.check(shortRange, DetectorConfiguration.shortRange.modelFile, input: 128 * 128 * 3, outputs: [896 * 16, 896])
        try Self.check(fullRange, DetectorConfiguration.fullRange.modelFile, input: 192 * 192 * 3, outputs: [2304 * 16, 2304])
        try Self.check(fullRangeSparse, DetectorConfiguration.fullRangeSparse.modelFile, input: 192 * 192 * 3, outputs: [2304 * 16, 2304])
        try Self.check(faceMesh, Self.faceMeshFile, input: 192 * 192 * 3, outputs: [1404, 1])
        try Self.check(iris, Self.irisFile, input: 64 * 64 * 3, outputs: [213, 15])
    }

    static func check(_ model: Model, _ name: String, input: Int, outputs: [Int]) throws(FaceAnalysisError) {
        guard model.inputs.count == 1, model.inputs[0].elementCount == input else {
            throw .unexpectedModelShape(model: name, detail: "inputs \(model.inputs), expected one of \(input) values")
        }
        for count in outputs where !model.outputs.contains(where: { $0.elementCount == count }) {
            throw .unexpectedModelShape(model: name, detail: "outputs \(model.outputs) lack one of \(count) values")
        }
    }

    func detector(_ mode: DetectorMode) -> Model {
        switch mode {
        case .fast: shortRange
        case .accurate: fullRange
        case .sparse: fullRangeSparse
        }
    }
}
