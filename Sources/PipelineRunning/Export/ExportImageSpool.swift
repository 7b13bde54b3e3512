#if canImport(Glibc)
import Glibc
import RunFolders
#endif

/// The images of a run as the export's first pass read them (manifest and
/// per-image JSON, once), kept in a nameless file in DEST for the pass that
/// writes (``ExportDestination/anonymousFile()``): each image with its kept
/// faces and only the point groups the format writes, in a compact binary
/// form (numbers as their bit patterns, so they come back exact). Memory
/// holds one buffer of ``bufferBytes`` whatever the run's size; the file's
/// space is freed when the spool is let go of. Owns the descriptor.
final class ExportImageSpool {
    static let bufferBytes = 1 << 20
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    /// Bytes of the file written so far; then, while reading, read so far.
    private var fileBytes = 0
    private var readOffset = 0
    private var bufferStart = 0
    /// Whether the writing is over (``rewind()``).
    private var sealed = false
    private(set) var count = 0

    init(in destination: ExportDestination) throws(ExportError) {
        descriptor = try destination.anonymousFile()
        path = destination.root.path + " (a nameless file)"
        buffer.reserveCapacity(Self.bufferBytes)
    }

    deinit { close(descriptor) }

    // MARK: Writing

    func append(_ image: ExportImage) throws(ExportError) {
        precondition(!sealed, "the spool is being read")
        put(image.archive)
        put(image.entry)
        put(image.index)
        put(image.frame)
        put(image.width)
        put(image.height)
        put(image.exifOrientation)
        put(image.facesJSON)
        put(image.faces.count)
        for face in image.faces {
            put(face.face)
            put(face.confidence)
            for v in [face.box.x, face.box.y, face.box.width, face.box.height] { put(v) }
            put(face.groups.count)
            for name in face.groups.keys.sorted() {
                let points = face.groups[name]!
                put(name)
                put(points.count)
                for point in points {
                    put(point.x)
                    put(point.y)
                }
            }
        }
        count += 1
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    private func put(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { buffer.append(contentsOf: $0) } }
    private func put(_ value: Double) { put(Int(Int64(bitPattern: value.bitPattern))) }
    private func put(_ value: Int?) {
        buffer.append(value == nil ? 0 : 1)
        if let value { put(value) }
    }
    private func put(_ text: String) {
        put(text.utf8.count)
        buffer.append(contentsOf: text.utf8)
    }

    private func flush() throws(ExportError) {
        var done = 0
        while done < buffer.count {
            let wrote = buffer.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(fileBytes + done)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else {
                throw .cannotWrite(path: path, reason: wrote < 0 ? OSReason(errno: errno).description : "nothing written")
            }
            done += wrote
        }
        fileBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Reading

    /// Ends the writing (the first time); ``next()`` then gives the images
    /// back from the first.
    func rewind() throws(ExportError) {
        if !sealed {
            try flush()
            sealed = true
        }
        buffer.removeAll(keepingCapacity: true)
        readOffset = 0
        bufferStart = 0
    }

    /// The next image, or nil after the last.
    func next() throws(ExportError) -> ExportImage? {
        precondition(sealed, "rewind() first")
        guard readOffset < fileBytes else { return nil }
        let archive = try string(), entry = try string(), index = try int(), frame = try optionalInt()
        let width = try int(), height = try int(), exifOrientation = try optionalInt(), facesJSON = try string()
        var image = ExportImage(archive: archive, entry: entry, index: index, frame: frame, width: width, height: height,
                                exifOrientation: exifOrientation, facesJSON: facesJSON, faces: [])
        let faces = try length()
        image.faces.reserveCapacity(faces)
        for _ in 0..<faces {
            let number = try int(), confidence = try double()
            let x = try double(), y = try double(), w = try double(), h = try double()
            var groups: [String: [(x: Double, y: Double)]] = [:]
            let groupCount = try length()
            for _ in 0..<groupCount {
                let name = try string()
                var points: [(x: Double, y: Double)] = []
                let n = try length()
                points.reserveCapacity(n)
                for _ in 0..<n {
                    let px = try double(), py = try double()
                    points.append((x: px, y: py))
                }
                groups[name] = points
            }
            image.faces.append(ExportFace(face: number, confidence: confidence, box: (x: x, y: y, width: w, height: h), groups: groups))
        }
        return image
    }

    /// `count` bytes from the read position, refilling the buffer from the file as needed.
    private func take(_ count: Int) throws(ExportError) -> ArraySlice<UInt8> {
        let start = readOffset - bufferStart
        if start + count > buffer.count {
            let want = max(count, Self.bufferBytes)
            var fresh = [UInt8](repeating: 0, count: min(want, fileBytes - readOffset))
            guard fresh.count >= count else { throw .cannotWrite(path: path, reason: "ended early") }
            let whole: Bool
            do {
                whole = try fresh.withUnsafeMutableBytes { (raw) in
                    try PackFile.read(descriptor, into: raw, at: readOffset, path: path)
                }
            } catch {
                throw .cannotWrite(path: path, reason: "\(error)")
            }
            guard whole else { throw .cannotWrite(path: path, reason: "ended early") }
            buffer = fresh
            bufferStart = readOffset
        }
        let from = readOffset - bufferStart
        readOffset += count
        return buffer[from..<from + count]
    }

    private func int() throws(ExportError) -> Int {
        var value: Int64 = 0
        let bytes = try take(8)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        return Int(Int64(littleEndian: value))
    }
    private func double() throws(ExportError) -> Double { Double(bitPattern: UInt64(bitPattern: Int64(try int()))) }
    private func optionalInt() throws(ExportError) -> Int? {
        guard try take(1).first != 0 else { return nil }
        return try int()
    }
    /// A count: never negative, never more than the bytes left.
    private func length() throws(ExportError) -> Int {
        let value = try int()
        guard (0...(fileBytes - readOffset)).contains(value) else { throw .cannotWrite(path: path, reason: "damaged") }
        return value
    }
    private func string() throws(ExportError) -> String {
        let n = try length()
        return String(decoding: try take(n), as: UTF8.self)
    }
}
