import Crypto
import Foundation

/// The file form of the stage cache's results and the completion records:
/// a magic naming the format version and the kind of record, the record in
/// ``CompactEncoder``'s form, then the SHA-256 of everything before it.
/// ``open(_:kind:from:)`` gives the record back only when the file is whole
/// and unchanged and of that kind; anything else (a cut or flipped file,
/// another version's format, a stage result where a completion record
/// belongs) throws ``RecordDamage`` and the record is recomputed. The
/// checksum finds damage, not forgery: whoever rewrites a record can seal
/// it again, so its values are still checked before use
/// (``EntryRecord/damage(comparedWith:)``).
package enum SealedRecord {
    package enum Kind: UInt8, Sendable {
        case stageResult = 1
        case completion = 2
    }

    /// "FPREC" and the format version; the kind byte follows.
    static let magic: [UInt8] = Array("FPREC2".utf8)
    static let checksumSize = SHA256.byteCount

    package static func seal<T: Encodable>(_ value: T, kind: Kind) throws -> [UInt8] {
        var bytes = magic + [kind.rawValue]
        bytes += try CompactEncoder.encode(value)
        bytes += Array(SHA256.hash(data: bytes))
        return bytes
    }

    package static func open<T: Decodable>(_ type: T.Type, kind: Kind, from bytes: [UInt8]) throws(RecordDamage) -> T {
        let header = magic.count + 1
        guard bytes.count >= header + checksumSize else { throw RecordDamage("\(bytes.count) bytes, shorter than a record") }
        guard bytes.starts(with: magic) else { throw RecordDamage("not a record of this format version") }
        guard bytes[magic.count] == kind.rawValue else { throw RecordDamage("a record of another kind") }
        let body = bytes.count - checksumSize
        guard Array(SHA256.hash(data: bytes[..<body])) == Array(bytes[body...]) else { throw RecordDamage("checksum mismatch") }
        do {
            return try CompactDecoder.decode(type, from: Array(bytes[header..<body]))
        } catch {
            throw RecordDamage("undecodable: \(error)")
        }
    }
}

/// Why a stored record was not used (it is recomputed instead).
package struct RecordDamage: Error, CustomStringConvertible, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
