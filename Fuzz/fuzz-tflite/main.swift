import CLibFuzzerDriver
import Glibc
import TFLite

/// Parses the bytes as a `.tflite` model and reads every buffer a tensor
/// names. A parse error is fine; a trap or a bad access is the finding.
func fuzzTFLite(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, let model = try? TFLiteModel(bytes: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    for subgraph in model.subgraphs {
        for tensor in subgraph.tensors { _ = model.data(ofBuffer: tensor.buffer).count }
    }
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTFLite))
