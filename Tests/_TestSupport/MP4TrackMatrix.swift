import Foundation

/// The display matrix of an MP4 file's track header (`tkhd`), set in place:
/// clips made by `ffmpeg` carry the identity matrix, which this finds after
/// the first `tkhd` and overwrites, so a test can make a turned or mirrored
/// clip without a muxer option for it.
public enum MP4TrackMatrix {
    public enum PatchError: Error, CustomStringConvertible {
        case noIdentityMatrix(String)
        public var description: String {
            switch self {
            case .noIdentityMatrix(let name): "\(name) has no track header with the identity matrix to patch"
            }
        }
    }

    /// `file`'s first track matrix set to `values`: a, b, c, d of its 2×2
    /// part in 16.16 fixed point (the translation and the third column stay).
    public static func patch(_ file: URL, _ values: [Int32]) throws {
        precondition(values.count == 4, "a, b, c and d")
        var bytes = [UInt8](try Data(contentsOf: file))
        let zeros = [UInt8](repeating: 0, count: 12)
        let identity: [UInt8] = [0, 1, 0, 0] + zeros + [0, 1, 0, 0] + zeros + [0x40, 0, 0, 0]
        let tag = Array("tkhd".utf8)
        guard bytes.count > identity.count,
              let header = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }),
              let at = (header..<(bytes.count - identity.count)).first(where: { Array(bytes[$0..<($0 + identity.count)]) == identity })
        else { throw PatchError.noIdentityMatrix(file.lastPathComponent) }
        for (slot, value) in zip([0, 1, 3, 4], values) {
            let bits = UInt32(bitPattern: value)
            for i in 0..<4 { bytes[at + slot * 4 + i] = UInt8((bits >> (8 * UInt32(3 - i))) & 0xFF) }
        }
        try Data(bytes).write(to: file)
    }
}
