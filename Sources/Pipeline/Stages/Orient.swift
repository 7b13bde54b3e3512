import ImageCore

/// Applies the EXIF orientation recorded by ``Decode`` so that every later
/// stage, the manifest and the outputs see upright pixels (origin top-left).
public struct Orient: Stage {
    public init() {}

    public var definition: StageDefinition { StageDefinition("orient") }

    public func process(_ frame: Frame<Phase.Decoded>, context: StageContext) throws -> Frame<Phase.Upright> {
        var out = frame.advanced(to: Phase.Upright.self)
        let orientation = ExifOrientation(rawValue: frame.record.exifOrientation) ?? .topLeft
        if orientation != .topLeft {
            out.image = frame.image.oriented(orientation)
        }
        out.record.width = out.image.width
        out.record.height = out.image.height
        return out
    }
}
