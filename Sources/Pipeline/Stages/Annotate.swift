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
        public static let standard: Layers = [.boxes, .keypoints, .contours, .iris, .rejected]

        var names: [String] {
            [(Layers.boxes, "boxes"), (.keypoints, "keypoints"), (.contours, "contours"), (.iris, "iris"),
             (.mesh, "mesh"), (.rejected, "rejected")].filter { contains($0.0) }.map(\.1)
        }
    }

    public var layers: Layers
    /// Line thickness in pixels; nil scales with the image (1 px per 500 px of the shorter side, at least 1).
    public var thickness: Int?

    public init(_ layers: Layers = .standard, thickness: Int? = nil) {
        self.layers = layers
        self.thickness = thickness
    }

    public var definition: StageDefinition {
        StageDefinition("annotate", options: ["layers": layers.names.joined(separator: "+"),
                                              "thickness": thickness.map(String.init) ?? "auto"])
    }

    public func validate() throws(PipelineError) {
        if let thickness, !(1...64).contains(thickness) {
            throw .invalidOption(stage: "annotate", option: "thickness", reason: "must be within 1…64, got \(thickness)")
        }
    }

    static let kept: Painter.Colour = (40, 220, 60)
    static let rejectedColour: Painter.Colour = (230, 40, 40)
    static let keypointColour: Painter.Colour = (255, 210, 0)
    static let contourColour: Painter.Colour = (0, 200, 255)
    static let irisColour: Painter.Colour = (255, 60, 200)
    static let meshColour: Painter.Colour = (200, 200, 200)

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Annotated> {
        var out = frame.advanced(to: Phase.Annotated.self)
        var painter = Painter(image: frame.image)
        let t = thickness ?? max(1, min(frame.image.width, frame.image.height) / 500)
        for face in frame.record.faces {
            if !face.isKept {
                if layers.contains(.rejected), layers.contains(.boxes) {
                    painter.strokeRect(face.box, thickness: t, Self.rejectedColour)
                }
                continue
            }
            if layers.contains(.mesh), let mesh = face.points("mesh") {
                for p in mesh.points { painter.dot(p, radius: max(0, t / 2), Self.meshColour) }
            }
            if layers.contains(.contours) {
                for group in face.pointGroups where group.name.hasPrefix("contour.") {
                    let closed = group.name == "contour.face" || group.name.hasSuffix("Eye")
                    painter.polyline(group.points, closed: closed, thickness: t, Self.contourColour)
                }
            }
            if layers.contains(.iris) {
                for name in ["left_iris", "right_iris"] {
                    if let iris = face.points(name) {
                        painter.polyline(Array(iris.points.dropFirst()), closed: true, thickness: t, Self.irisColour)
                        if let centre = iris.points.first { painter.dot(centre, radius: t, Self.irisColour) }
                    }
                }
            }
            if layers.contains(.boxes) { painter.strokeRect(face.box, thickness: t, Self.kept) }
            if layers.contains(.keypoints) {
                for p in face.keypoints { painter.dot(p, radius: t + 1, Self.keypointColour) }
            }
        }
        out.image = painter.image
        return out
    }
}
