import CLibFuzzerDriver
import Glibc
import ImageCodecs

/// One decoder for the whole process (it owns its TurboJPEG handle).
nonisolated(unsafe) private let decoder = ImageDecoder()

/// Decodes the bytes as an image (JPEG with its EXIF
/// orientation, or PNG, by their signature) and makes it upright, with a
/// small pixel limit so inputs stay cheap. Decode errors are fine; a trap or
/// a bad access is the finding.
func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let image = try? decoder.decode(bytes, options: DecodeOptions(maxPixels: 1 << 22)) else { return 0 }
    _ = image.uprightImage()
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzImage))
