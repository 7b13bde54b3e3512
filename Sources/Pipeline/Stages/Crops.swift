import ImageCodecs
import ImageCore

/// Cuts each kept face with landmarks out of the upright image as aligned
/// crops (PNG): the ArcFace crop (five points onto insightface's template by
/// a least-squares similarity, `arcface-size`×`arcface-size`, 112 by
/// default) and FFHQ's larger eye-to-mouth square (`ffhq-size`, 0 for none).
/// Points: `FaceAlignment`. Sampling: `RGBImage/warped(_:size:)`, the
/// project's one region-of-interest sampler.
///
/// The writer puts them in `crops/<archive>/<entry>/<face>.<kind>.png`; the
/// JSON lists each crop with its image → crop map, the manifest's `crop`
/// column names the first. Writes pixels, so never cached; it reads the
/// cached landmarks (`--from crops` does not detect again). A face without
/// a mesh (no ``Landmarks`` before) gets no crop.
public struct Crops: Stage {
    public var arcfaceSize: Int
    public var ffhqSize: Int

    public init(arcfaceSize: Int = 112, ffhqSize: Int = 256) {
        self.arcfaceSize = arcfaceSize
        self.ffhqSize = ffhqSize
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("arcface-size", \.arcfaceSize), StageOption("ffhq-size", \.ffhqSize)]
    }

    public var definition: StageDefinition { StageDefinition("crops", optionsOf: self) }

    public func validate() throws(PipelineError) {
        guard arcfaceSize == 0 || (arcfaceSize % 112 == 0 && arcfaceSize <= 1120) else {
            throw .invalidOption(stage: "crops", option: "arcface-size", reason: "must be 0 or a multiple of 112 up to 1120, got \(arcfaceSize)")
        }
        guard ffhqSize == 0 || (16...4096).contains(ffhqSize) else {
            throw .invalidOption(stage: "crops", option: "ffhq-size", reason: "must be 0 or within 16…4096, got \(ffhqSize)")
        }
    }

    public func process(_ frame: consuming Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        for i in frame.record.faces.indices where frame.record.faces[i].isKept {
            guard let points = FaceAlignment.fivePoints(of: frame.record.faces[i]) else { continue }
            var crops: [AlignedCrop] = []
            let recipes: [(AlignedCrop.Kind, Int, AffineMap?)] = [
                (.arcface, arcfaceSize, arcfaceSize > 0 ? FaceAlignment.arcface(points, size: arcfaceSize) : nil),
                (.ffhq, ffhqSize, ffhqSize > 0 ? FaceAlignment.ffhq(points, size: ffhqSize) : nil),
            ]
            for (kind, size, map) in recipes {
                guard let imageToCrop = map, let cropToImage = imageToCrop.inverted() else { continue }
                let png = try FastPNGEncoder.encode(frame.image.warped(cropToImage, size: size))
                crops.append(AlignedCrop(kind: kind, size: size, imageToCrop: imageToCrop, png: png))
            }
            frame.record.faces[i].crops = crops
        }
        return frame
    }
}
