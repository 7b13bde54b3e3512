import CLibFuzzerDriver
import ArchiveIO
import Glibc

/// One in-memory file the inputs are written to (`memfd_create`: no disk),
/// read back by `TarReader` through its descriptor as an archive on disk is.
let memoryFile = facepipe_fuzz_memory_file()

/// Reads the bytes as an archive (tar in every variant
/// libarchive knows, compressed tar, zip), every entry to the end, with a
/// small entry limit so inputs stay small. Archive errors are fine; a trap or
/// a bad access is the finding.
func fuzzTar(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard memoryFile >= 0, ftruncate(memoryFile, 0) == 0, pwrite(memoryFile, data, size, 0) == size,
          lseek(memoryFile, 0, SEEK_SET) == 0 else { fatalError("memfd: \(String(cString: strerror(errno)))") }
    var observed = 0
    do {
        let reader = try TarReader(fileDescriptor: memoryFile, name: "fuzz.tar",
                                   options: TarReader.Options(maxEntryBytes: 1 << 20, blockSize: 4096),
                                   observer: { observed += $0.count })
        while let item = try reader.next() {
            if case .file(let entry) = item { _ = entry.data.count }
        }
        try reader.readToEnd()
    } catch {}
    return 0
}

exit(facepipe_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTar))
