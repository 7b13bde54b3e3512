import ImageCore

/// Draws the faces onto the upright image: boxes (kept in green, rejected in
/// red), detector keypoints, contours, irises, mesh points.
public struct Annotate: Stage {
    /// What to draw.
    public struct Layers: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let boxes = Layers(rawValue: 1)
        public static let keypoints = Layers(rawValue: 2)
        public static let contours = Layers(rawValue: 4)
        public static let iris = Layers(rawValue: 8)
        public static let mesh = Layers(rawValue: 16)
        /// Also outline faces a filter rejected.
        public static let rejected = Layers(rawValue: 32)
        /// Face number and confidence above each box.
        public static let labels = Layers(rawValue: 64)
        public static let standard: Layers = [.boxes, .keypoints, .contours, .iris, .rejected, .labels]

        static let named: [(layer: Layers, name: String)] = [
            (.boxes, "boxes"), (.keypoints, "keypoints"), (.contours, "contours"), (.iris, "iris"),
            (.mesh, "mesh"), (.rejected, "rejected"), (.labels, "labels"),
        ]
    }

    public var layers: Layers
    /// Line thickness in pixels; nil scales with the image (1 px per 500 px of the shorter side, at least 1).
    public var thickness: Int?

    public init(_ layers: Layers = .standard, thickness: Int? = nil) {
        self.layers = layers
        self.thickness = thickness
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("layers", \.layers), StageOption("thickness", \.thickness)]
    }

    public var definition: StageDefinition { StageDefinition("annotate", optionsOf: self) }

    public func validate() throws(PipelineError) {
        if let thickness, !(1...64).contains(thickness) {
            throw .invalidOption(stage: "annotate", option: "thickness", reason: "must be within 1…64, got \(thickness)")
        }
    }

    static let keptColour = RGBColor(r: 40, g: 220, b: 60)
    static let rejectedColour = RGBColor.red
    static let keypointColour = RGBColor.yellow
    static let contourColour = RGBColor(r: 0, g: 200, b: 255)
    static let irisColour = RGBColor.magenta
    static let meshColour = RGBColor(gray: 210)

    public func process(_ frame: consuming Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Annotated> {
        // Take the pixels out of the frame and end the frame's lifetime, so
        // they have one reference: drawing then changes them in place (no
        // copy of the picture).
        var image = frame.image
        let record = frame.record, encoded = frame.encoded
        _ = consume frame
        let t = Float(thickness ?? max(1, min(image.width, image.height) / 500))
        let textScale = max(1, Int(t))
        for face in record.faces {
            if !face.isKept {
                if layers.contains(.rejected), layers.contains(.boxes) {
                    image.drawRectangle(face.box, width: t, color: Self.rejectedColour)
                    if layers.contains(.labels) { label(&image, "#\(face.face) rejected", face.box, textScale, Self.rejectedColour) }
                }
                continue
            }
            if layers.contains(.mesh), let mesh = face.points(.mesh) {
                for p in mesh.points { image.drawDot(at: p, radius: max(0.75, t / 2), color: Self.meshColour) }
            }
            if layers.contains(.contours) {
                for group in face.pointGroups {
                    guard let contour = group.groupName.contour else { continue }
                    image.drawPolyline(group.points, closed: contour.isClosed, width: t, color: Self.contourColour)
                }
            }
            if layers.contains(.iris) {
                for name in [PointGroup.Name.leftIris, .rightIris] {
                    if let iris = face.points(name), let centre = iris.points.first {
                        image.drawPolyline(Array(iris.points.dropFirst()), closed: true, width: t, color: Self.irisColour)
                        image.drawDot(at: centre, radius: t, color: Self.irisColour)
                    }
                }
            }
            if layers.contains(.boxes) { image.drawRectangle(face.box, width: t, color: Self.keptColour) }
            if layers.contains(.keypoints) {
                for p in face.keypoints { image.drawDot(at: p, radius: t + 1, color: Self.keypointColour) }
            }
            if layers.contains(.labels) {
                label(&image, "#\(face.face) \(FixedFormat.string(face.confidence, decimals: 2))", face.box, textScale, Self.keptColour)
            }
        }
        return Frame(image: image, record: record, encoded: encoded)
    }

    private func label(_ image: inout RGBImage, _ text: String, _ box: Rect, _ scale: Int, _ colour: RGBColor) {
        let height = Float(BitmapFont.lineHeight * scale)
        let top = box.y - height - Float(2 * scale) >= 0 ? box.y - height - Float(2 * scale) : box.y + box.height + Float(2 * scale)
        image.drawText(text, at: Point(x: box.x, y: top), scale: scale, color: .black, background: colour)
    }
}

/// Layer names joined by `+` (`boxes+keypoints+labels`); `none` or nothing is no layer.
extension Annotate.Layers: StageOptionValue {
    public init?(optionText: String) {
        self = []
        guard optionText != "none", !optionText.isEmpty else { return }
        for name in optionText.split(separator: "+", omittingEmptySubsequences: false) {
            guard let layer = Self.named.first(where: { $0.name == name })?.layer else { return nil }
            insert(layer)
        }
    }
    public var optionText: String { Self.named.filter { contains($0.layer) }.map(\.name).joined(separator: "+") }
    public static var expectedText: String {
        "layers joined by + (" + named.map(\.name).joined(separator: ", ") + ") or none"
    }
}
