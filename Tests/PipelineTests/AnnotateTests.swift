import ImageCore
import Pipeline
import Testing

/// What ``Annotate`` draws, checked on the pixels of synthetic pictures:
/// every label whole (found pixel for pixel), dots small on small faces.
struct AnnotateTests {
    static let kept = RGBColor(r: 40, g: 220, b: 60)
    static let rejected = RGBColor.red

    static func annotate(_ faces: [FaceRecord], width: Int, height: Int,
                         layers: Annotate.Layers = .standard) throws -> RGBImage {
        var record = EntryRecord(archive: "a", entry: "e", index: 0)
        record.width = width
        record.height = height
        record.faces = faces
        let frame = Frame<Phase.Detected>(image: RGBImage(width: width, height: height), record: record)
        return try Annotate(layers).process(frame, context: StageContext(shared: SharedResources(), worker: 0)).image
    }

    static func face(_ number: Int, _ x: Float, _ y: Float, _ side: Float, confidence: Float = 0.93,
                     rejection: String? = nil) -> FaceRecord {
        var face = FaceRecord(face: number, confidence: confidence, box: Rect(x: x, y: y, width: side, height: side))
        face.rejection = rejection
        return face
    }

    /// The label `text` as drawn at `scale` (black on `background`, padded by `scale`).
    static func stamp(_ text: String, scale: Int, background: RGBColor) -> RGBImage {
        let size = BitmapFont.size(of: text, scale: scale)
        var image = RGBImage(width: size.width + 2 * scale, height: size.height + 2 * scale)
        image.drawText(text, at: Point(x: Float(scale), y: Float(scale)), scale: scale, color: .black, background: background)
        return image
    }

    /// Whether `stamp` appears in `image` pixel for pixel, at any scale's size.
    static func containsLabel(_ image: RGBImage, _ text: String, background: RGBColor) -> Bool {
        (1...8).contains { scale in
            let stamp = stamp(text, scale: scale, background: background)
            guard stamp.width <= image.width, stamp.height <= image.height else { return false }
            for y in 0...(image.height - stamp.height) {
                for x in 0...(image.width - stamp.width) where image.pixel(x: x, y: y) == background {
                    if matches(image, stamp, x, y) { return true }
                }
            }
            return false
        }
    }

    static func matches(_ image: RGBImage, _ stamp: RGBImage, _ x: Int, _ y: Int) -> Bool {
        for sy in 0..<stamp.height {
            for sx in 0..<stamp.width where image.pixel(x: x + sx, y: y + sy) != stamp.pixel(x: sx, y: sy) {
                return false
            }
        }
        return true
    }

    @Test func aLabelAtTheRightEdgeIsWhole() throws {
        let image = try Self.annotate([Self.face(14, 612, 200, 28)], width: 640, height: 427)
        let whole = Self.containsLabel(image, "#14 0.93", background: Self.kept)
        #expect(whole, "label #14 whole")
    }

    @Test func aLabelAtTheBottomRightCornerIsWhole() throws {
        let image = try Self.annotate([Self.face(6, 615, 402, 25, confidence: 0.9)], width: 640, height: 427)
        let whole = Self.containsLabel(image, "#6 0.90", background: Self.kept)
        #expect(whole, "label #6 whole")
    }

    /// Face #10 and a rejected duplicate #16 on it (as in the sample's 12 MP
    /// collage): both labels whole, the kept one not under the red one.
    @Test func aRejectedLabelDoesNotHideAKeptOne() throws {
        let faces = [Self.face(10, 445, 320, 44, confidence: 0.83),
                     Self.face(16, 461, 312, 73, confidence: 0.63, rejection: "confidence 0.63 < 0.70")]
        let image = try Self.annotate(faces, width: 1000, height: 750)
        let keptWhole = Self.containsLabel(image, "#10 0.83", background: Self.kept)
        let rejectedWhole = Self.containsLabel(image, "#16 rejected", background: Self.rejected)
        #expect(keptWhole, "label #10 whole")
        #expect(rejectedWhole, "label #16 whole")
    }

    /// A crowd of small faces in a thumbnail: every label whole and readable.
    @Test func everyLabelInACrowdIsWhole() throws {
        var faces: [FaceRecord] = []
        for row in 0..<3 {
            for column in 0..<8 {
                let number = row * 8 + column
                faces.append(Self.face(number, Float(40 + column * 64 + (row % 2) * 20), Float(60 + row * 120), 30,
                                       rejection: number % 4 == 3 ? "too small" : nil))
            }
        }
        let image = try Self.annotate(faces, width: 640, height: 427)
        for face in faces {
            let text = face.isKept ? "#\(face.face) 0.93" : "#\(face.face) rejected"
            let whole = Self.containsLabel(image, text, background: face.isKept ? Self.kept : Self.rejected)
            #expect(whole, "label \(text) whole")
        }
    }

    /// Six keypoints on a 20-px face in a 12 MP photo cover little of it.
    @Test func keypointDotsOnASmallFaceLeaveItVisible() throws {
        var face = Self.face(0, 2000, 1500, 20)
        face.keypoints = [(6, 7), (14, 7), (10, 11), (10, 15), (1, 9), (19, 9)].map { Point(x: 2000 + $0, y: 1500 + $1) }
        let image = try Self.annotate([face], width: 4000, height: 3000, layers: .keypoints)
        var inked = 0
        for y in 1480..<1540 {
            for x in 1980..<2040 where image.pixel(x: x, y: y) != .black { inked += 1 }
        }
        #expect(inked > 0 && inked <= 40, "\(inked) pixels of dots on a 400-px face")
    }

    /// The box outline follows the face: a hairline on a 24-px face, bold
    /// on a 600-px face in the same 12 MP photo.
    @Test func boxOutlinesFollowTheFace() throws {
        let image = try Self.annotate([Self.face(0, 1000, 1000, 24), Self.face(1, 2000, 1000, 600)],
                                      width: 4000, height: 3000, layers: .boxes)
        func strokeWidth(atX x: Int, fromY y: Int) -> Int {
            (y - 12..<y + 12).filter { image.pixel(x: x, y: $0) != .black }.count
        }
        #expect(strokeWidth(atX: 1012, fromY: 1000) <= 2)
        #expect(strokeWidth(atX: 2300, fromY: 1000) == 10)
    }
}
