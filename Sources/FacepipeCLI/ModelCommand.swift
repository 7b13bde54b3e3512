import ArgumentParser
import FaceAnalysis
import Foundation
import Inference
import Pipeline
import RunFolders
import TFLite

/// `facepipe model …`: look inside a TFLite model and run it on raw tensors
/// (and, in a benchmark build, time it: `model bench`).
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Inspect a TFLite model and run it on facepipe's inference engine.",
        subcommands: [ModelInspect.self, ModelRun.self] + BenchmarkCommands.model
    )
}

/// Shared handling of model commands: any error is printed and exits with status 2.
enum ModelCommandSupport {
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("facepipe model: \(message)\n".utf8))
        return ExitCode(2)
    }

    static func guarded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail("\(error)")
        }
    }

    static func readBytes(_ path: String, what: String) throws -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ModelCommandError.unreadable(what: what, path: path, reason: OSReason(error, about: path))
        }
    }

    /// A `.tflite` file, or YuNet-s's weights file (`FPYUNET1`, docs/YUNET.md)
    /// as `YuNetGraph` declares it (32×32 input; `--input-size` re-plans it).
    static func loadModel(_ path: String) throws -> Model {
        let bytes = try readBytes(path, what: "model")
        return try ModelFileFormat(sniffing: bytes).model(bytes: bytes, file: path, kernels: KernelSelection.kernels())
    }

    /// Reads a raw little-endian float32 file that must hold exactly `tensor`'s elements.
    static func readTensor(_ path: String, for tensor: TensorDescription, index: Int) throws -> [Float] {
        let bytes = try readBytes(path, what: "input file")
        guard bytes.count == tensor.elementCount * 4 else {
            throw ModelCommandError.tensorFileSize(index: index, tensor: tensor, path: path, bytes: bytes.count)
        }
        return bytes.withUnsafeBytes { raw in
            (0..<tensor.elementCount).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func writeTensor(_ values: [Float], to path: String) throws {
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ModelCommandError.unwritable(path: path)
        }
    }

    static func shape(_ shape: [Int]) -> String { "[" + shape.map(String.init).joined(separator: ", ") + "]" }
}
