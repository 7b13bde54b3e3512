import Crypto
import Foundation

/// Lower-case hex SHA-256 of bytes.
package func sha256Hex(_ bytes: some DataProtocol) -> String {
    SHA256.hash(data: bytes).hexString
}

extension Sequence where Element == UInt8 {
    package var hexString: String {
        var s = ""
        for byte in self {
            s.append(Character(Unicode.Scalar(hexDigits[Int(byte >> 4)])))
            s.append(Character(Unicode.Scalar(hexDigits[Int(byte & 0xF)])))
        }
        return s
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
