import CLibFuzzerDriver
import Glibc
import VideoIO

/// Decodes the bytes as a video container (MP4/MOV or MKV/WebM by their first bytes; H.264, H.265, VP9,
/// AV1) to RGB frames, every frame to the end, as a tar member's video is read, with a small pixel limit
/// (and at most 64 frames) so inputs stay cheap. Video errors are fine; a trap or a bad access is the
/// finding. The mutations (`ContainerLengthMutator`) reach the MP4 box and Matroska element sizes.
func fuzzVideo(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let decoder = try VideoDecoder(.bytes(bytes), name: "fuzz.mp4", maxPixels: 1 << 18)
        var frames = 0
        while frames < 64, let frame = try decoder.next() {
            precondition(frame.image.pixels.count == frame.image.width * frame.image.height * 3, "frame \(frame.index)'s pixels")
            precondition(frame.image.width == decoder.info.width && frame.image.height == decoder.info.height, "frame size")
            precondition(frame.image.width * frame.image.height <= 1 << 18, "a frame over the pixel limit")
            frames += 1
        }
    } catch {
        // Each error names the input, as the manifest shows it.
        precondition("\(error)".contains("fuzz.mp4"), "\(error)")
    }
    return 0
}

/// libFuzzer's hook for a mutator of our own: half the time one of the container's length fields
/// (`ContainerLengthMutator`), otherwise libFuzzer's byte-level mutations.
@_cdecl("LLVMFuzzerCustomMutator")
func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    var random = SplitMix64(seed: UInt64(seed))
    if random.next() & 1 == 0 {
        var bytes = Array(UnsafeBufferPointer(start: data, count: size))
        if ContainerLengthMutator.mutate(&bytes, maxSize: maxSize, random: &random) {
            bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
            return bytes.count
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize)
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzVideo))
