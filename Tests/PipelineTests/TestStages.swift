import Foundation
import ImageCore
import Pipeline
import Synchronization

// User-defined stages, written the way docs/PIPELINES.md tells users to: they also
// let the runner be tested without codecs or models.

/// Decodes binary PPM (P6, maxval 255): a stage of one's own for a format facepipe does not read.
struct DecodePPM: Stage {
    struct BadPPM: Error, CustomStringConvertible { var description: String }

    var definition: StageDefinition { StageDefinition("decode-ppm") }

    func process(_ frame: Frame<Phase.Encoded>, context: StageContext) throws -> Frame<Phase.Decoded> {
        let bytes = frame.encoded
        // Header: "P6\n<w> <h>\n255\n"
        var fields: [String] = []
        var position = 0
        while fields.count < 4, position < bytes.count {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A { position += 1 }
            var field = ""
            while position < bytes.count, bytes[position] != 0x20, bytes[position] != 0x0A {
                field.append(Character(Unicode.Scalar(bytes[position])))
                position += 1
            }
            fields.append(field)
        }
        position += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
              w > 0, h > 0, w * h <= 1 << 24 else {
            throw BadPPM(description: "not a binary PPM header")
        }
        guard bytes.count - position >= w * h * 3 else {
            throw BadPPM(description: "truncated: \(bytes.count - position) of \(w * h * 3) pixel bytes")
        }
        var out = frame.advanced(to: Phase.Decoded.self)
        out.image = RGBImage(width: w, height: h, pixels: Array(bytes[position..<(position + w * h * 3)]))
        out.encoded = []
        out.record.width = w
        out.record.height = h
        return out
    }
}

/// Takes decoded pixels as upright (PPM has no EXIF).
struct AsUpright: Stage {
    var definition: StageDefinition { StageDefinition("as-upright") }
    func process(_ frame: Frame<Phase.Decoded>, context: StageContext) throws -> Frame<Phase.Upright> {
        frame.advanced()
    }
}

/// Counts calls per stage name (to see what the cache spared).
final class CallCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func hit(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    func count(_ name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}

/// "Detects" pure red pixels (255, 0, 0): one face per connected row band,
/// confidence = red share of the box. Deterministic and cheap.
struct DetectRedSquares: Stage {
    var counter: CallCounter?
    var minimumSide: Int = 1

    var definition: StageDefinition { StageDefinition("detect-red", options: ["minimum-side": "\(minimumSide)"]) }
    var caching: StageCaching { .records }

    func validate() throws(PipelineError) {
        guard minimumSide >= 1 else {
            throw .invalidOption(stage: "detect-red", option: "minimum-side", reason: "must be at least 1, got \(minimumSide)")
        }
    }

    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
        counter?.hit("detect-red")
        var out = frame.advanced(to: Phase.Detected.self)
        out.record.detectionRan = true
        let image = frame.image
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, red = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                if image.pixels[i] == 255, image.pixels[i + 1] == 0, image.pixels[i + 2] == 0 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); red += 1
                }
            }
        }
        if maxX >= 0, maxX - minX + 1 >= minimumSide {
            let w = maxX - minX + 1, h = maxY - minY + 1
            out.record.faces = [FaceRecord(face: 0, confidence: Float(red) / Float(w * h),
                                           box: Rect(x: Float(minX), y: Float(minY), width: Float(w), height: Float(h)),
                                           keypoints: [Point(x: Float(minX) + Float(w) / 2, y: Float(minY) + Float(h) / 2)])]
        }
        return out
    }
}

/// A per-face stage: adds the box corners as a point group.
struct Corners: Stage {
    var counter: CallCounter?
    var definition: StageDefinition { StageDefinition("corners") }
    func process(_ slot: FaceSlot<FacePhase.Detected>, context: StageContext) throws -> FaceSlot<FacePhase.Landmarked> {
        counter?.hit("corners")
        var out = slot.advanced(to: FacePhase.Landmarked.self)
        let b = slot.face.box
        out.face.setPoints(PointGroup(name: "corners", points: [
            Point(x: b.x, y: b.y), Point(x: b.x + b.width, y: b.y),
            Point(x: b.x + b.width, y: b.y + b.height), Point(x: b.x, y: b.y + b.height),
        ]))
        out.face.pose = HeadAngles(roll: 1.25, yaw: -0.004, pitch: 0)
        return out
    }
}

/// Marks the face box by inverting its pixels: a stand-in for drawing.
struct InvertBoxes: Stage {
    var label: String = "invert"
    var definition: StageDefinition { StageDefinition("invert-boxes", options: ["label": label]) }
    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Annotated> {
        var out = frame.advanced(to: Phase.Annotated.self)
        for face in frame.record.faces where face.isKept {
            let x0 = Int(face.box.x), y0 = Int(face.box.y)
            for y in y0..<(y0 + Int(face.box.height)) {
                for x in x0..<(x0 + Int(face.box.width)) {
                    let i = (y * out.image.width + x) * 3
                    for c in 0..<3 { out.image.pixels[i + c] = 255 &- out.image.pixels[i + c] }
                }
            }
        }
        return out
    }
}

/// Encodes PPM (deterministic), as a custom image output.
let ppmOutput = ImageOutputFormat.custom(name: "ppm", fileExtension: "ppm") { image in
    Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
}

/// A binary PPM with a red square at (x, y) of side `side` on grey.
func makePPM(width: Int = 24, height: Int = 16, background: UInt8 = 90, square: (x: Int, y: Int, side: Int)?) -> [UInt8] {
    var pixels = [UInt8](repeating: background, count: width * height * 3)
    if let s = square {
        for y in s.y..<min(height, s.y + s.side) {
            for x in s.x..<min(width, s.x + s.side) {
                let i = (y * width + x) * 3
                pixels[i] = 255; pixels[i + 1] = 0; pixels[i + 2] = 0
            }
        }
    }
    return Array("P6\n\(width) \(height)\n255\n".utf8) + pixels
}
