import Crypto
import Foundation
import Inference

/// The face models one run needs, verified and loaded once, then shared
/// read-only by every worker's ``FaceAnalyzer``.
///
/// ``load(_:from:)`` is the only way models are read: it checks each file's
/// SHA-256 against the catalogue (``FaceModel/sha256``), parses and plans it,
/// and checks that its tensors have the sizes the decoders need. Asking for
/// a model that was not loaded is an error naming it, never a silent load.
public struct FaceModels: Sendable {
    private let loaded: [FaceModel: Model]

    /// No models: for pipelines without face stages.
    public static let none = FaceModels(loaded: [:])

    private init(loaded: [FaceModel: Model]) {
        self.loaded = loaded
    }

    /// The models held, in catalogue order.
    public var models: [FaceModel] { loaded.keys.sorted() }

    /// Reads, verifies and plans each of `models` from `directory`.
    /// - Throws: `FaceAnalysisError.missingModel`, `.modelUnreadable`,
    ///   `.modelHashMismatch` or `.unexpectedModelShape`, naming the file.
    /// - Parameter kernels: the micro-kernel set every model is planned
    ///   with (both sets give the same bytes; the run configuration chooses).
    public static func load(_ models: some Sequence<FaceModel>, from directory: URL,
                            kernels: KernelSet = .best) throws(FaceAnalysisError) -> FaceModels {
        var loaded: [FaceModel: Model] = [:]
        for model in models where loaded[model] == nil {
            loaded[model] = try load(model, from: directory, kernels: kernels)
        }
        return FaceModels(loaded: loaded)
    }

    private static func load(_ model: FaceModel, from directory: URL, kernels: KernelSet) throws(FaceAnalysisError) -> Model {
        let url = directory.appendingPathComponent(model.fileName)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .missingModel(file: model.fileName, directory: directory.path)
        }
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw .modelUnreadable(file: model.fileName, reason: error.localizedDescription)
        }
        let digest = SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        guard digest == model.sha256 else {
            throw .modelHashMismatch(file: model.fileName, expected: model.sha256, actual: digest)
        }
        let parsed: Model
        do { parsed = try model.format.model(bytes: bytes, file: url.path, kernels: kernels) } catch {
            throw .unexpectedModelShape(model: model.fileName, detail: "cannot load: \(error)")
        }
        let input = model.format.inputElementCount(side: model.inputSide)
        guard parsed.inputs.count == 1, parsed.inputs[0].elementCount == input else {
            throw .unexpectedModelShape(model: model.fileName, detail: "inputs \(parsed.inputs), expected one of \(input) values")
        }
        for count in model.requiredOutputCounts where !parsed.outputs.contains(where: { $0.elementCount == count }) {
            throw .unexpectedModelShape(model: model.fileName, detail: "outputs \(parsed.outputs) lack one of \(count) values")
        }
        return parsed
    }

    /// The loaded `model`.
    /// - Throws: `FaceAnalysisError.modelNotLoaded` when the plan did not load it.
    public func model(_ model: FaceModel) throws(FaceAnalysisError) -> Model {
        guard let found = loaded[model] else { throw .modelNotLoaded(file: model.fileName) }
        return found
    }
}
