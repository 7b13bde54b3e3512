import Foundation
import ImageCodecs
import ImageCore
import RunFolders

/// The clean upright pictures of a run's images, read again from the run's
/// inputs: decoded and turned by their EXIF orientation (`DecodedImage`'s
/// `uprightImage()`, what ``Decode`` and ``Orient`` do in a run), a video
/// frame decoded again (every frame of the video is decoded; those the
/// manifest lists are kept) and turned by its container's rotation, each
/// encoded as PNG by ``FastPNGEncoder`` (lossless, same bytes every time).
///
/// Each input is opened from the path run.json records (relative paths from
/// the current folder) through ``VerifiedInput``, which checks its SHA-256
/// against run.json's before any picture is given out, then read in order
/// and hashed again: an input that changed since the run is an error, and
/// so is an image whose upright size differs from the run's.
enum UprightImages {
    /// Calls `body` with each of `images` (manifest order) and its PNG
    /// bytes. The manifest lists an input's entries in the order its source
    /// gives them, so each input is read alongside them: the next image
    /// wanted is the only one held.
    static func forEach(of run: FinishedRun, _ images: ExportImageSpool,
                        _ body: (ExportImage, [UInt8]) throws(ExportError) -> Void) throws(ExportError) {
        try images.rewind()
        var wanted = try images.next()
        let decoder = ImageDecoder()
        func order(_ key: ExportImage.Key) -> (Int, Int) { (key.index, key.frame ?? -1) }
        for input in run.inputs {
            guard let first = wanted, first.archive == input.name else { continue }
            let (path, expected) = try recorded(input)
            // Checked against run.json before a single picture is written.
            var source = try VerifiedInput.open(path, sha256: expected, bytes: input.bytes)
            // The first image the input no longer has, once passed.
            var gone: ExportImage?
            do {
                while let item = try source.next() {
                    guard gone == nil, let image = wanted, image.archive == input.name else { continue }
                    let key: ExportImage.Key
                    switch item {
                    case .entry(let entry): key = ExportImage.Key(index: entry.index, frame: nil)
                    case .frame(let frame): key = ExportImage.Key(index: frame.index, frame: frame.frame)
                    case .unreadable, .skipped: continue
                    }
                    if order(key) < order(image.key) { continue }
                    guard key == image.key else {
                        gone = image
                        continue
                    }
                    let picture: RGBImage, name: String
                    switch item {
                    case .entry(let entry):
                        let decoded = try decoder.decode(entry.data, options: DecodeOptions(maxPixels: 1_000_000_000))
                        (picture, name) = (decoded.uprightImage(), entry.name)
                    case .frame(let frame):
                        // Turned by the container's rotation, as ``Orient`` turns it in a run.
                        let orientation = ExifOrientation(rawValue: frame.exifOrientation) ?? .topLeft
                        (picture, name) = (frame.image.oriented(orientation), frame.name)
                    case .unreadable, .skipped:
                        continue
                    }
                    guard picture.width == image.width, picture.height == image.height else {
                        throw ExportError.inputChanged(input: path, reason: "\(name) is \(picture.width)×\(picture.height), the run saw \(image.width)×\(image.height)")
                    }
                    try body(image, try FastPNGEncoder.encode(picture))
                    wanted = try images.next()
                }
                let digest = try source.digest()
                guard digest?.sha256 == expected else {
                    throw ExportError.inputChanged(input: path, reason: "its SHA-256 is \(digest?.sha256 ?? "unknown"), the run read \(expected)")
                }
                if let missing = gone ?? wanted.flatMap({ $0.archive == input.name ? $0 : nil }) {
                    throw ExportError.inputChanged(input: path, reason: "entry \(missing.index) (\(missing.entry)) is gone")
                }
            } catch let error as ExportError {
                throw error
            } catch {
                throw .inputChanged(input: path, reason: "\(error)")
            }
        }
        if let orphan = wanted {
            throw .inputChanged(input: orphan.archive, reason: "run.json lists no input of that name in manifest order")
        }
    }

    /// Refuses, before anything is written, a run with an input the images
    /// cannot be read again from (standard input, no SHA-256 recorded):
    /// `archives`, the inputs that have images.
    static func checkReadable(_ run: FinishedRun, archives: Set<String>) throws(ExportError) {
        for input in run.inputs where archives.contains(input.name) { _ = try recorded(input) }
    }

    /// The path and SHA-256 run.json records for `input`.
    private static func recorded(_ input: FinishedRun.Input) throws(ExportError) -> (path: String, sha256: String) {
        guard let path = input.path, path != "-" else {
            throw .inputChanged(input: input.name, reason: "the run read it from standard input, which cannot be read again (run facepipe on the file to export it)")
        }
        guard let expected = input.sha256 else {
            throw .inputChanged(input: path, reason: "run.json has no SHA-256 for it (the run stopped before reading all of it)")
        }
        return (path, expected)
    }

    /// Whether `path` is a regular file (``RegularFile``: no link, FIFO or
    /// device is opened) that starts like a JPEG or PNG.
    static func isImageFile(_ path: String) -> Bool {
        guard let head = try? RegularFile(path).prefix(8) else { return false }
        return !head.isEmpty && ImageFormat(sniffing: head) != nil
    }
}
