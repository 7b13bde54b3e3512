import CCPUFeatures
import ImageCore

/// Encodes 8-bit RGB images as PNG with facepipe's own deflate compressor
/// (no libpng or zlib): several times faster than zlib's fastest level on
/// photos, for files a little larger.
///
/// The image is filtered and compressed block by block (a few hundred KiB of
/// rows each), so memory beyond the output is one block. Output is a pure
/// function of the pixels and the options: signature, IHDR, IDAT (one chunk
/// unless the stream is longer than `maximumChunkLength`), IEND.
public enum FastPNGEncoder {
    /// The PNG file for `image`: colour type 2 (RGB), or 0 (grey) when every
    /// pixel is grey and `options.greyscaleWhenPossible`; 8 bits per sample,
    /// not interlaced.
    public static func encode(_ image: RGBImage, options: FastPNGEncodeOptions = FastPNGEncodeOptions()) throws(PNGEncodeError) -> [UInt8] {
        guard (4096...(16 << 20)).contains(options.blockSize) else {
            throw .invalidOptions("block size \(options.blockSize) is outside 4096...\(16 << 20)")
        }
        guard options.maximumChunkLength >= 1 && options.maximumChunkLength <= Int(Int32.max) else {
            throw .invalidOptions("maximum chunk length \(options.maximumChunkLength) is outside 1...\(Int32.max)")
        }
        guard image.width > 0, image.height > 0 else { throw .emptyImage(width: image.width, height: image.height) }
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .invalidOptions("\(image.width)x\(image.height) exceeds PNG's limit of \(Int32.max) per side")
        }
        return image.pixels.withUnsafeBufferPointer { pixels in
            let grey = options.greyscaleWhenPossible && isGrey(pixels)
            let layout = Layout(width: image.width, height: image.height, channels: grey ? 1 : 3, options: options)
            return [UInt8](unsafeUninitializedCapacity: layout.capacity) { buffer, count in
                HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress!), byteCount: buffer.count)
                count = write(pixels.baseAddress!, layout, options, into: UnsafeMutableRawBufferPointer(buffer))
            }
        }
    }

    /// True when every pixel has R = G = B. Works on 24 bytes (8 pixels) per
    /// step: byte j must equal byte j + 1 unless j is a pixel's last byte,
    /// so three 8-byte XORs against the stream shifted by one, masked, must
    /// be zero. Checks in runs of 1536 bytes, stopping at the first colour.
    private static func isGrey(_ pixels: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = pixels.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = pixels.count
        @inline(__always) func differences(_ offset: Int, _ mask: UInt64) -> UInt64 {
            (raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)) & mask
        }
        var index = 0
        // Little-endian byte k of a mask is position offset + k; 0x00 where that position is a B sample.
        while index + 1536 + 1 <= count {
            var found: UInt64 = 0
            for step in stride(from: index, to: index + 1536, by: 24) {
                found |= differences(step, UInt64(0xFFFF_00FF_FF00_FFFF).littleEndian)
                    | differences(step + 8, UInt64(0xFF00_FFFF_00FF_FF00).littleEndian)
                    | differences(step + 16, UInt64(0x00FF_FF00_FFFF_00FF).littleEndian)
            }
            if found != 0 { return false }
            index += 1536
        }
        while index + 3 <= count {
            if base[index] != base[index + 1] || base[index] != base[index + 2] { return false }
            index += 3
        }
        return true
    }

    /// Sizes derived once from the image shape.
    struct Layout {
        let width: Int
        let height: Int
        /// Samples per pixel written: 3 (RGB) or 1 (grey).
        let channels: Int
        /// Filter byte + channels·width.
        let rowLength: Int
        let rowsPerBlock: Int
        let blockCount: Int
        let zlibBound: Int
        let capacity: Int

        init(width: Int, height: Int, channels: Int, options: FastPNGEncodeOptions) {
            self.width = width
            self.height = height
            self.channels = channels
            rowLength = channels * width + 1
            rowsPerBlock = max(1, min(height, options.blockSize / rowLength))
            blockCount = (height + rowsPerBlock - 1) / rowsPerBlock
            let lastRows = height - (blockCount - 1) * rowsPerBlock
            zlibBound = 2 + (blockCount - 1) * DeflateCompressor.blockBound(length: rowsPerBlock * rowLength)
                + DeflateCompressor.blockBound(length: lastRows * rowLength) + 4
            let extraChunks = zlibBound / options.maximumChunkLength + 1
            // Signature, IHDR, IDAT header and CRC (plus any extra IDAT chunks), IEND, flush slack.
            capacity = 8 + 25 + 12 + zlibBound + 12 * extraChunks + 12 + 16
        }
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let idat: UInt32 = 0x4944_4154

    /// Writes the whole file into `output`; returns its length.
    private static func write(_ pixels: UnsafePointer<UInt8>, _ layout: Layout, _ options: FastPNGEncodeOptions,
                              into output: UnsafeMutableRawBufferPointer) -> Int {
        let base = output.baseAddress!
        var position = 0
        for byte in signature { base.storeBytes(of: byte, toByteOffset: position, as: UInt8.self); position += 1 }
        var header = [UInt8](repeating: 0, count: 13)
        header.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: UInt32(layout.width).bigEndian, toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: UInt32(layout.height).bigEndian, toByteOffset: 4, as: UInt32.self)
        }
        header[8] = 8  // bits per sample
        header[9] = layout.channels == 1 ? 0 : 2  // colour type: greyscale or RGB
        // compression 0 (deflate), filter method 0, no interlacing
        position = writeChunk(0x4948_4452, header, base, position)  // IHDR

        let idatStart = position
        position += 8  // length and type, filled in below
        let zlibStart = position
        base.storeBytes(of: idat.bigEndian, toByteOffset: idatStart + 4, as: UInt32.self)
        var crc = CRC32()
        crc.update(UnsafeRawBufferPointer(start: base + idatStart + 4, count: 4))
        let zlibLength = compress(pixels, layout, options, crc: &crc,
                                  into: base, start: zlibStart, capacity: output.count - 12 * (layout.zlibBound / options.maximumChunkLength + 1) - 12)
        if zlibLength <= options.maximumChunkLength {
            base.storeBytes(of: UInt32(zlibLength).bigEndian, toByteOffset: idatStart, as: UInt32.self)
            base.storeBytes(of: crc.value.bigEndian, toByteOffset: zlibStart + zlibLength, as: UInt32.self)
            position = zlibStart + zlibLength + 4
        } else {
            position = splitIntoChunks(base, idatStart: idatStart, zlibLength: zlibLength, maximum: options.maximumChunkLength)
        }
        position = writeChunk(0x4945_4E44, [], base, position)  // IEND
        return position
    }

    /// The zlib stream (RFC 1950: header, deflate blocks, Adler-32) of the
    /// filtered rows. `crc` is fed the stream's bytes as each block completes,
    /// while they are still in cache (the IDAT CRC when one chunk holds it all).
    private static func compress(_ pixels: UnsafePointer<UInt8>, _ layout: Layout, _ options: FastPNGEncodeOptions,
                                 crc: inout CRC32, into base: UnsafeMutableRawPointer, start: Int, capacity: Int) -> Int {
        var writer = DeflateBitWriter(base: base, capacity: capacity, position: start)
        // CMF 0x78: deflate, 32 KiB window; FLG 0x01: fastest level, no dictionary, (CMF·256 + FLG) % 31 == 0.
        writer.write(0x0178, bits: 16)
        writer.flush()
        var checksummed = start
        let blockBytes = layout.rowsPerBlock * layout.rowLength
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: blockBytes + 32)
        defer { filtered.deallocate() }
        let compressor = DeflateCompressor(maxBlockLength: blockBytes, findsRuns: options.runLengthMatches,
                                           usesVectors: options.usesVectors)
        let filter = PNGRowFilter(options.filter)
        let pixelRow = 3 * layout.width
        let sampleRow = layout.rowLength - 1
        // Grey images: the R samples of the current and previous rows, gathered.
        let greyRows = UnsafeMutablePointer<UInt8>.allocate(capacity: layout.channels == 1 ? 2 * layout.width : 0)
        defer { greyRows.deallocate() }
        var adler = Adler32()
        var row = 0
        while row < layout.height {
            let rows = min(layout.rowsPerBlock, layout.height - row)
            for index in 0..<rows {
                let y = row + index
                // The picture comes from memory, not cache: ask for the row four
                // ahead now (sequential rows alone left the filter waiting on loads).
                if y + 4 < layout.height {
                    let ahead = UnsafeRawPointer(pixels + (y + 4) * pixelRow)
                    for offset in stride(from: 0, to: pixelRow, by: 64) { facepipe_prefetch(ahead + offset) }
                }
                var current = pixels + y * pixelRow
                var previous = y > 0 ? current - pixelRow : nil
                if layout.channels == 1 {
                    let grey = greyRows + (y & 1) * layout.width
                    for x in 0..<layout.width { grey[x] = current[3 * x] }
                    current = UnsafePointer(grey)
                    previous = y > 0 ? UnsafePointer(greyRows + ((y + 1) & 1) * layout.width) : nil
                }
                filter.apply(current: current, previous: previous, count: sampleRow, pixelBytes: layout.channels,
                             into: filtered + index * layout.rowLength)
            }
            let block = UnsafeRawBufferPointer(start: filtered, count: rows * layout.rowLength)
            adler.update(block)
            row += rows
            compressor.compress(block, isFinal: row == layout.height, into: &writer)
            // Bytes before `writer.position` are final; the byte at it may still gain bits.
            crc.update(UnsafeRawBufferPointer(start: base + checksummed, count: writer.position - checksummed))
            checksummed = writer.position
        }
        writer.alignToByte()
        writer.writeAlignedBigEndian(adler.value)
        crc.update(UnsafeRawBufferPointer(start: base + checksummed, count: writer.position - checksummed))
        return writer.position - start
    }

    /// Writes IDAT headers and CRCs around the `zlibLength` bytes that follow
    /// `idatStart + 8`, moving data forward to open gaps for chunks 2, 3, ….
    /// Returns the position after the last IDAT chunk.
    private static func splitIntoChunks(_ base: UnsafeMutableRawPointer, idatStart: Int, zlibLength: Int, maximum: Int) -> Int {
        let chunkCount = max(1, (zlibLength + maximum - 1) / maximum)
        // Move chunk k's data forward by 12·k bytes (last first, so nothing is overwritten before it moves).
        for chunk in stride(from: chunkCount - 1, through: 1, by: -1) {
            let from = idatStart + 8 + chunk * maximum
            let length = min(maximum, zlibLength - chunk * maximum)
            (base + from + 12 * chunk).copyMemory(from: base + from, byteCount: length)
        }
        var position = idatStart
        for chunk in 0..<chunkCount {
            let length = min(maximum, zlibLength - chunk * maximum)
            base.storeBytes(of: UInt32(length).bigEndian, toByteOffset: position, as: UInt32.self)
            base.storeBytes(of: idat.bigEndian, toByteOffset: position + 4, as: UInt32.self)
            let crc = CRC32.checksum(UnsafeRawBufferPointer(start: base + position + 4, count: 4 + length))
            base.storeBytes(of: crc.bigEndian, toByteOffset: position + 8 + length, as: UInt32.self)
            position += 12 + length
        }
        return position
    }

    /// Writes a whole chunk (length, type, data, CRC over type and data).
    private static func writeChunk(_ type: UInt32, _ data: [UInt8], _ base: UnsafeMutableRawPointer, _ position: Int) -> Int {
        base.storeBytes(of: UInt32(data.count).bigEndian, toByteOffset: position, as: UInt32.self)
        base.storeBytes(of: type.bigEndian, toByteOffset: position + 4, as: UInt32.self)
        data.withUnsafeBytes { bytes in
            if let source = bytes.baseAddress { (base + position + 8).copyMemory(from: source, byteCount: bytes.count) }
        }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(start: base + position + 4, count: 4 + data.count))
        base.storeBytes(of: crc.bigEndian, toByteOffset: position + 8 + data.count, as: UInt32.self)
        return position + 12 + data.count
    }
}

extension PNGRowFilter {
    init(_ filter: FastPNGEncodeOptions.Filter) {
        switch filter {
        case .none: self = .none
        case .sub: self = .sub
        case .up: self = .up
        case .average: self = .average
        case .paeth: self = .paeth
        }
    }
}
