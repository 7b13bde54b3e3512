import Crypto
import Foundation

/// Lower-case hex SHA-256 of a file's bytes, read in 1 MiB chunks into one
/// buffer (no per-chunk `Data`: the archives are hashed for `run.json`).
func sha256Hex(ofFileAt url: URL) throws -> String {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
    defer { buffer.deallocate() }
    while true {
        let count = read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
        if count < 0 {
            if errno == EINTR { continue }
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        if count == 0 { break }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    return hasher.finalize().hexString
}

/// Lower-case hex SHA-256 of bytes.
func sha256Hex(_ bytes: some DataProtocol) -> String {
    SHA256.hash(data: bytes).hexString
}

extension Sequence where Element == UInt8 {
    var hexString: String {
        var s = ""
        for byte in self {
            s.append(Character(Unicode.Scalar(hexDigits[Int(byte >> 4)])))
            s.append(Character(Unicode.Scalar(hexDigits[Int(byte & 0xF)])))
        }
        return s
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
