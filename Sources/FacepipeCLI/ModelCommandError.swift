import Inference
import Pipeline
import RunFolders

/// Why a `facepipe model …` command cannot run with its arguments (exit 2).
/// The engine's own refusals stay `InferenceError`s.
enum ModelCommandError: Error, CustomStringConvertible {
    /// A model or input file cannot be read.
    case unreadable(what: String, path: String, reason: OSReason)
    /// An output file cannot be created.
    case unwritable(path: String)
    /// `flag` was given `given` times for a model with these tensors.
    case tensorCount(flag: String, tensors: [TensorDescription], given: Int)
    /// A raw float32 input file of the wrong size.
    case tensorFileSize(index: Int, tensor: TensorDescription, path: String, bytes: Int)
    /// `model bench`: iterations outside 1…1000000 or warm-up outside 0…1000000.
    case iterations(Int, warmup: Int)
    /// `model bench`: `--input` files with `--first-convolution int8`.
    case inputWithInt8
    /// `model bench`: an `--input-size` that is not WIDTHxHEIGHT with sides in 1…4096.
    case inputSize(String)
    /// `model bench`: `--input-size` for a model without one NHWC image input.
    case inputSizeNeedsImage

    var description: String {
        switch self {
        case let .unreadable(what, path, reason): "cannot read \(what) \(path): \(reason)"
        case let .unwritable(path): "cannot write output file \(path)"
        case let .tensorCount(flag, tensors, given):
            "the model has \(tensors.count) \(flag == "--input" ? "input" : "output")(s) (\(tensors.map(\.description).joined(separator: ", "))); got \(given) \(flag)"
        case let .tensorFileSize(index, tensor, path, bytes):
            "input \(index) '\(tensor.name)' \(tensor.shape) needs \(tensor.elementCount * 4) bytes of float32, \(path) has \(bytes)"
        case let .iterations(iterations, warmup):
            "--iterations must be in 1…1000000 and --warmup in 0…1000000; got \(iterations) and \(warmup)"
        case .inputWithInt8: "--input takes float tensors; --first-convolution int8 runs on random bytes"
        case let .inputSize(size): "--input-size takes WIDTHxHEIGHT with sides in 1…4096; got \(size)"
        case .inputSizeNeedsImage: "--input-size needs a model with one NHWC image input"
        }
    }
}
