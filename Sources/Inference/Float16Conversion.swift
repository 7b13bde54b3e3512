/// Decodes little-endian IEEE half floats (TFLite FLOAT16 buffers) to Float.
enum Float16Conversion {
    static func decode(_ bytes: ArraySlice<UInt8>) -> [Float] {
        var result = [Float](repeating: 0, count: bytes.count / 2)
        bytes.withUnsafeBytes { raw in
            for index in result.indices {
                let bits = raw.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)
                result[index] = Float(Float16(bitPattern: UInt16(littleEndian: bits)))
            }
        }
        return result
    }

    static func decodeFloat32(_ bytes: ArraySlice<UInt8>) -> [Float] {
        var result = [Float](repeating: 0, count: bytes.count / 4)
        bytes.withUnsafeBytes { raw in
            for index in result.indices {
                let bits = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                result[index] = Float(bitPattern: UInt32(littleEndian: bits))
            }
        }
        return result
    }
}
