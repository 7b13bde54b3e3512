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
    /// Line thickness in pixels of boxes, contours and irises; nil scales
    /// each face's lines with the face (`AnnotationScale`).
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
        let showRejected = layers.contains(.rejected) && layers.contains(.boxes)
        let drawn = record.faces.filter { $0.isKept || showRejected }
        // Rejected faces first, so kept faces' marks lie on top of them.
        for face in drawn where !face.isKept { drawMarks(of: face, on: &image) }
        for face in drawn where face.isKept { drawMarks(of: face, on: &image) }
        // Labels last, so no mark covers one; kept faces choose their places first.
        // A video frame's labels wait for its tracking ids: the run's encode step draws them (`DeferredLabels`).
        var deferred: Annotate?
        if layers.contains(.labels) {
            if record.frame != nil { deferred = self } else { drawLabels(of: record, on: &image) }
        }
        var out = Frame<Phase.Annotated>(image: image, record: record, encoded: encoded)
        out.deferredLabels = deferred
        return out
    }

    /// Draws the labels of `record`'s drawn faces, kept ones first.
    func drawLabels(of record: EntryRecord, on image: inout RGBImage) {
        let showRejected = layers.contains(.rejected) && layers.contains(.boxes)
        let drawn = record.faces.filter { $0.isKept || showRejected }
        drawLabels(for: drawn.filter(\.isKept) + drawn.filter { !$0.isKept }, on: &image)
    }

    /// Sizes for `face`'s marks; `thickness` (when set) fixes the line widths.
    func scale(of face: FaceRecord, in image: RGBImage) -> AnnotationScale {
        var scale = AnnotationScale(face: face.box, pictureWidth: image.width, pictureHeight: image.height)
        if let thickness {
            scale.lineWidth = Float(thickness)
            scale.detailWidth = Float(thickness)
        }
        return scale
    }

    private func drawMarks(of face: FaceRecord, on image: inout RGBImage) {
        let scale = scale(of: face, in: image)
        guard face.isKept else {
            return image.drawRectangle(face.box, width: scale.lineWidth, color: Self.rejectedColour)
        }
        if layers.contains(.mesh), let mesh = face.points(.mesh) {
            for p in mesh.points { image.drawDot(at: p, radius: scale.meshDotRadius, color: Self.meshColour) }
        }
        if layers.contains(.contours) {
            for group in face.pointGroups {
                guard let contour = group.groupName.contour else { continue }
                image.drawPolyline(group.points, closed: contour.isClosed, width: scale.detailWidth, color: Self.contourColour)
            }
        }
        if layers.contains(.iris) {
            for name in [PointGroup.Name.leftIris, .rightIris] {
                if let iris = face.points(name), let centre = iris.points.first {
                    image.drawPolyline(Array(iris.points.dropFirst()), closed: true, width: scale.detailWidth, color: Self.irisColour)
                    image.drawDot(at: centre, radius: scale.dotRadius * 0.75, color: Self.irisColour)
                }
            }
        }
        if layers.contains(.boxes) { image.drawRectangle(face.box, width: scale.lineWidth, color: Self.keptColour) }
        if layers.contains(.keypoints) {
            for p in face.keypoints { image.drawDot(at: p, radius: scale.dotRadius, color: Self.keypointColour) }
        }
    }

    /// Labels one size for the whole picture, placed by ``LabelPlacer`` in
    /// the order of `faces` beside each face's box (its stroke included),
    /// off every drawn face's box where there is room.
    private func drawLabels(for faces: [FaceRecord], on image: inout RGBImage) {
        let texts = faces.map { face in
            // A tracked face (a video frame's) also shows its id: `#0 0.93 id 4`.
            (face.isKept ? "#\(face.face) \(FixedFormat.string(face.confidence, decimals: 2))" : "#\(face.face) rejected")
                + (face.trackingID.map { " id \($0)" } ?? "")
        }
        let textScale = AnnotationScale.labelScale(pictureWidth: image.width, pictureHeight: image.height,
                                                   widestText: texts.max { $0.count < $1.count } ?? "")
        let boxes = faces.map { face in
            LabelPlacer.Box(covering: face.box, outset: scale(of: face, in: image).lineWidth / 2)
        }
        var placer = LabelPlacer(pictureWidth: image.width, pictureHeight: image.height,
                                 obstacles: layers.contains(.boxes) ? boxes.compactMap { $0 } : [], spacing: textScale)
        for (face, (text, box)) in zip(faces, zip(texts, boxes)) {
            guard let box else { continue }
            let size = BitmapFont.size(of: text, scale: textScale)
            let label = placer.place(width: size.width + 2 * textScale, height: size.height + 2 * textScale, beside: box)
            image.drawText(text, at: Point(x: Float(label.x + textScale), y: Float(label.y + textScale)), scale: textScale,
                           color: .black, background: face.isKept ? Self.keptColour : Self.rejectedColour)
        }
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
