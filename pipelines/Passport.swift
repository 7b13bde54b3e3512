import Foundation
import Pipeline

extension Pipelines {
    /// Passport-photo acceptance: one well-posed, centred face of the right
    /// size and quality. Rejected faces keep their row with the reason.
    public static let passport = Pipeline("passport",
                                          summary: "pose within limits, face size and centring, capture quality; rejects recorded with the reason",
                                          rationale: "a passport photo's face fills about half the frame, so faces under a fifth of the width are other people or background and are not searched for.") {
        Decode()
        Orient()
        DetectFaces(.fast, minFaceSize: .fraction(0.2))
        FilterConfidence(atLeast: 0.8)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
            Classify()
            Quality()
        }
        PassportCheck()
        Annotate([.boxes, .keypoints, .contours, .rejected])
        WriteOutputs()
    }
}

/// A stage written in this folder, like any user's: checks each kept face
/// against passport-photo rules and rejects it with every failed rule named.
public struct PassportCheck: Stage {
    /// Largest |pitch| and |yaw| in radians, and the allowed roll band.
    public var maxPitch: Float = 0.2
    public var maxYaw: Float = 0.15
    public var maxRoll: Float = 0.14
    /// Face width / image width must be within `guideWidth` ± `sizeTolerance` (relative).
    public var guideWidth: Float = 0.5
    public var sizeTolerance: Float = 0.2
    /// Largest distance of the face centre from the image centre (fraction of the image size).
    public var maxOffCentre: Float = 0.1
    /// Smallest capture quality.
    public var minQuality: Float = 0.4

    public init() {}

    public static var optionTable: [StageOption<Self>] {
        [StageOption("max-pitch-rad", \.maxPitch), StageOption("max-yaw-rad", \.maxYaw), StageOption("max-roll-rad", \.maxRoll),
         StageOption("guide-width", \.guideWidth), StageOption("size-tolerance", \.sizeTolerance),
         StageOption("max-off-centre", \.maxOffCentre), StageOption("min-quality", \.minQuality)]
    }

    public var definition: StageDefinition { StageDefinition("passport-check", optionsOf: self) }

    public var caching: StageCaching { .records }

    public func validate() throws(PipelineError) {
        for (name, value, range) in [("max-pitch-rad", maxPitch, Float(0)...Float.pi), ("max-yaw-rad", maxYaw, 0...Float.pi),
                                     ("max-roll-rad", maxRoll, 0...Float.pi), ("guide-width", guideWidth, 0.01...1),
                                     ("size-tolerance", sizeTolerance, 0...1), ("max-off-centre", maxOffCentre, 0...1),
                                     ("min-quality", minQuality, 0...1)] where !range.contains(value) {
            throw .invalidOption(stage: "passport-check", option: name, reason: "must be within \(range), got \(value)")
        }
    }

    /// The rules `face` breaks in an image of `width` × `height` (empty: accepted).
    public func failedRules(_ face: FaceRecord, width: Int, height: Int) -> [String] {
        var failed: [String] = []
        let radians = Float.pi / 180
        if let pose = face.pose {
            if abs(pose.pitch * radians) >= maxPitch { failed.append("pitch \(String(format: "%.2f", pose.pitch * radians)) rad") }
            if abs(pose.yaw * radians) >= maxYaw { failed.append("yaw \(String(format: "%.2f", pose.yaw * radians)) rad") }
            if abs(pose.roll * radians) >= maxRoll { failed.append("roll \(String(format: "%.2f", pose.roll * radians)) rad") }
        } else {
            failed.append("no pose (landmarks not found)")
        }
        let w = Float(max(width, 1)), h = Float(max(height, 1))
        let relativeWidth = face.box.width / w
        if abs(relativeWidth - guideWidth) > guideWidth * sizeTolerance {
            failed.append("face width \(String(format: "%.2f", relativeWidth)) of image, want \(guideWidth) ± \(Int(sizeTolerance * 100))%")
        }
        let dx = abs((face.box.x + face.box.width / 2) / w - 0.5), dy = abs((face.box.y + face.box.height / 2) / h - 0.5)
        if max(dx, dy) > maxOffCentre { failed.append("off centre by \(String(format: "%.2f", max(dx, dy)))") }
        if let quality = face.quality, quality < minQuality {
            failed.append("quality \(String(format: "%.2f", quality)) < \(minQuality)")
        }
        return failed
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let kept = frame.record.faces.indices.filter { frame.record.faces[$0].isKept }
        for i in kept {
            var failed = failedRules(frame.record.faces[i], width: frame.record.width, height: frame.record.height)
            if kept.count > 1 { failed.insert("\(kept.count) faces in the photo", at: 0) }
            if !failed.isEmpty { frame.record.faces[i].rejection = "passport: " + failed.joined(separator: "; ") }
        }
        return frame
    }
}
