/// What facepipe needs from a JPEG's marker segments before decoding:
/// the EXIF block and whether an Adobe APP14 segment is present.
///
/// The walk stops at the first SOS (entropy-coded data follows) and never
/// reads past the buffer: each segment length is checked against it.
struct JPEGMarkers {
    /// Byte range of the TIFF structure inside the first `APP1 Exif\0\0` segment.
    var exif: Range<Int>?
    /// An `APP14 Adobe` segment was seen: CMYK samples are stored inverted.
    var hasAdobeSegment = false
    /// A segment's declared length ran past the end of the data.
    var runsPastEnd = false

    init(scanning data: UnsafeRawBufferPointer) {
        var position = 2  // after SOI
        while position + 4 <= data.count {
            guard data[position] == 0xFF else { return }  // libjpeg reports the bad marker itself
            var markerPosition = position + 1
            while markerPosition < data.count, data[markerPosition] == 0xFF { markerPosition += 1 }  // fill bytes
            guard markerPosition + 2 < data.count else { runsPastEnd = true; return }
            let marker = data[markerPosition]
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // standalone markers
                position = markerPosition + 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return }  // start of scan / end of image
            let length = Int(data[markerPosition + 1]) << 8 | Int(data[markerPosition + 2])
            let payloadStart = markerPosition + 3
            let segmentEnd = markerPosition + 1 + length
            guard length >= 2, segmentEnd <= data.count else { runsPastEnd = length >= 2; return }
            let payload = payloadStart..<segmentEnd
            if marker == 0xE1, exif == nil, Self.payload(data, payload, startsWith: Self.exifSignature) {
                exif = (payload.lowerBound + Self.exifSignature.count)..<payload.upperBound
            } else if marker == 0xEE, Self.payload(data, payload, startsWith: Self.adobeSignature) {
                hasAdobeSegment = true
            }
            position = segmentEnd
        }
        if position < data.count { runsPastEnd = true }
    }

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let adobeSignature: [UInt8] = Array("Adobe".utf8)

    private static func payload(_ data: UnsafeRawBufferPointer, _ range: Range<Int>, startsWith signature: [UInt8]) -> Bool {
        guard range.count >= signature.count else { return false }
        return signature.indices.allSatisfy { data[range.lowerBound + $0] == signature[$0] }
    }
}
