import CLibFuzzerDriver
import Glibc
import ImageCodecs

/// Reads the bytes as an EXIF TIFF block (what follows
/// `Exif\0\0` in a JPEG's APP1 segment). Every input gives an orientation,
/// with warnings for malformed ones; a trap or a bad access is the finding.
func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    _ = ExifParser.orientation(fromTIFF: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzExif))
