import FaceAnalysis

/// Gives each kept face a tracking id that persists across consecutive
/// images of an archive while the face stays in place (IoU and centre
/// distance matching, Mobile Vision style). Ids restart with each archive.
/// Ids appear in the manifest (`tracking_id`) and the JSON.
public struct Track: OrderedRecordStage {
    public var configuration: FaceTracker.Configuration

    /// - Parameters:
    ///   - maxMissingFrames: images a face may be missing before its id is retired.
    ///   - minIoU: overlap needed to continue a track.
    public init(maxMissingFrames: Int = 3, minIoU: Float = 0.3) {
        configuration = FaceTracker.Configuration(maxMissingFrames: maxMissingFrames, minIoU: minIoU)
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("max-missing-frames", \.configuration.maxMissingFrames),
         StageOption("min-iou", \.configuration.minIoU, decimals: 4),
         StageOption("max-centre-distance", \.configuration.maxCentreDistance, decimals: 4)]
    }

    public var definition: StageDefinition { StageDefinition("track", optionsOf: self) }

    public func validate() throws(PipelineError) {
        guard configuration.maxMissingFrames >= 0 else {
            throw .invalidOption(stage: "track", option: "max-missing-frames", reason: "must be ≥ 0")
        }
        guard (0...1).contains(configuration.minIoU) else {
            throw .invalidOption(stage: "track", option: "min-iou", reason: "must be within 0…1, got \(configuration.minIoU)")
        }
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        frame
    }

    public func makeOrderedPass() -> any OrderedRecordPass {
        TrackingPass(configuration: configuration)
    }
}

final class TrackingPass: OrderedRecordPass {
    let configuration: FaceTracker.Configuration
    var tracker: FaceTracker

    init(configuration: FaceTracker.Configuration) {
        self.configuration = configuration
        tracker = FaceTracker(configuration: configuration)
    }

    func beginArchive() {
        tracker = FaceTracker(configuration: configuration)
    }

    func apply(to record: inout EntryRecord) {
        let kept = record.faces.indices.filter { record.faces[$0].isKept }
        let ids = tracker.update(with: kept.map { record.faces[$0].box }, landmarks: kept.map { record.faces[$0].keypoints }).ids
        for (i, face) in kept.enumerated() { record.faces[face].trackingID = ids[i] }
    }
}
