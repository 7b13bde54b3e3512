import ImageCodecs
import ImageCore

/// Decodes JPEG or PNG (recognised by magic bytes, never by name) into RGB
/// pixels as stored; the EXIF orientation is recorded for ``Orient``.
/// Images whose header declares more than `maxPixels` are refused before any
/// pixel memory is allocated (PNG bombs).
public struct Decode: Stage {
    /// Most pixels (stored width × height) an entry may declare.
    public var maxPixels: Int

    public init(maxPixels: Int = 100_000_000) {
        self.maxPixels = maxPixels
    }

    public static var optionTable: [StageOption<Self>] { [StageOption("max-pixels", \.maxPixels)] }

    public var definition: StageDefinition { StageDefinition("decode", optionsOf: self) }

    public func validate() throws(PipelineError) {
        guard maxPixels >= 1, maxPixels <= 1_000_000_000 else {
            throw .invalidOption(stage: "decode", option: "max-pixels", reason: "must be within 1…1 000 000 000, got \(maxPixels)")
        }
    }

    public func process(_ frame: Frame<Phase.Encoded>, context: StageContext) throws -> Frame<Phase.Decoded> {
        // A video frame arrives decoded (its record has a frame number): the pixels go on as they are.
        if frame.record.frame != nil {
            guard frame.image.width * frame.image.height <= maxPixels else {
                throw ImageDecodeError.tooLarge(width: frame.image.width, height: frame.image.height, limit: maxPixels)
            }
            var out = frame.advanced(to: Phase.Decoded.self)
            out.encoded = []
            let turned = (ExifOrientation(rawValue: frame.record.exifOrientation) ?? .topLeft).swapsDimensions
            out.record.width = turned ? frame.image.height : frame.image.width
            out.record.height = turned ? frame.image.width : frame.image.height
            return out
        }
        // One decoder per worker: it keeps its TurboJPEG handle from image to image.
        let decoder = try context.resource(ImageDecoder.self)
        let decoded = try decoder.decode(frame.encoded, options: DecodeOptions(maxPixels: maxPixels))
        var out = Frame<Phase.Decoded>(image: decoded.image, record: frame.record)
        out.record.exifOrientation = decoded.orientation.rawValue
        out.record.sourceFormat = decoded.format
        out.record.width = decoded.uprightWidth
        out.record.height = decoded.uprightHeight
        out.record.warnings += decoded.warnings
        return out
    }
}

extension ImageDecoder: WorkerResource {
    public convenience init(shared: SharedResources) { self.init() }
}
