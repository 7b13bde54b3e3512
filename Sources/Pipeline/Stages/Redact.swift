import ImageCore

/// Makes every detected face unrecognisable in the upright image: each box
/// grown by `margin` on every side, replaced by a blur, pixel cells or black,
/// with a feathered edge (`RGBImage/redact(_:feather:style:strength:)`).
/// Faces a filter rejected are redacted too: redaction favours recall. The
/// region (where the replacement weighs at least ½) goes into the face's
/// record, so the manifest and the JSON list every redacted region.
///
/// Changes pixels, so it is never cached; it reads the cached detections,
/// so `--from redact` redacts again without detecting.
public struct Redact: Stage {
    public var style: RedactionStyle
    /// Added on each side, as a fraction of the box's width (left, right) and height (top, bottom).
    public var margin: Float
    /// Width of the soft edge, as a fraction of the box width.
    public var feather: Float
    /// Blur sigma as a fraction of the box width.
    public var sigma: Float
    /// Pixel cells across the box width (`.pixelate`).
    public var cells: Int

    public init(_ style: RedactionStyle = .blur, margin: Float = 0.25, feather: Float = 0.2,
                sigma: Float = 0.15, cells: Int = 8) {
        self.style = style
        self.margin = margin
        self.feather = feather
        self.sigma = sigma
        self.cells = cells
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("style", \.style), StageOption("margin", \.margin), StageOption("feather", \.feather),
         StageOption("sigma", \.sigma), StageOption("cells", \.cells)]
    }

    /// The stage's name in definitions, `describe` and `--set`.
    package static let stageName = "redact"
    public var definition: StageDefinition { StageDefinition(Self.stageName, optionsOf: self) }

    public func validate() throws(PipelineError) {
        func check(_ ok: Bool, _ option: String, _ reason: String) throws(PipelineError) {
            if !ok { throw .invalidOption(stage: Self.stageName, option: option, reason: reason) }
        }
        try check((0...2).contains(margin), "margin", "must be within 0…2, got \(margin)")
        try check((0...1).contains(feather), "feather", "must be within 0…1, got \(feather)")
        try check(sigma >= 0.05 && sigma <= 1, "sigma", "must be within 0.05…1 (a weaker blur leaves faces recognisable), got \(sigma)")
        try check((1...10).contains(cells), "cells", "must be within 1…10 (more cells leave faces recognisable), got \(cells)")
    }

    /// The region redacted for a face box: the box grown by `margin`.
    public func region(for box: Rect) -> Rect {
        Rect(x: box.x - margin * box.width, y: box.y - margin * box.height,
             width: box.width * (1 + 2 * margin), height: box.height * (1 + 2 * margin))
    }

    public func process(_ frame: consuming Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Annotated> {
        var image = frame.image
        var record = frame.record
        let encoded = frame.encoded
        _ = consume frame
        for i in record.faces.indices {
            record.faces[i].redaction = cover(record.faces[i].box, in: &image)
        }
        return Frame(image: image, record: record, encoded: encoded)
    }

    /// Redacts the region of a face box in `image` and returns the region.
    @discardableResult
    public func cover(_ box: Rect, in image: inout RGBImage) -> Rect {
        let region = region(for: box)
        let strength = switch style {
        case .blur: sigma * box.width
        case .pixelate: box.width / Float(cells)
        case .fill: Float(0)
        }
        image.redact(region, feather: feather * box.width, style: style, strength: strength)
        return region
    }
}

/// `blur`, `pixelate` or `fill`.
extension RedactionStyle: StageOptionValue {
    public init?(optionText: String) { self.init(rawValue: optionText) }
    public var optionText: String { rawValue }
    public static var expectedText: String { "blur, pixelate or fill" }
}
