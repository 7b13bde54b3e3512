import Pipeline

/// Rejects faces whose box comes within `margin` pixels of the picture's
/// edge: faces the photo cuts off, whose box and landmarks are guesses for
/// the part outside. They stay in the manifest as `rejected`, with the
/// reason in `rejection`; the stages after this one skip them.
///
/// `--set reject-border-faces.margin=8` widens the margin for a run.
struct RejectBorderFaces: Stage {
    /// Pixels; 0 rejects only boxes that reach or cross the edge.
    var margin: Float

    init(margin: Float = 0) {
        self.margin = margin
    }

    /// The options `--set` can change, by the names `describe` prints.
    static var optionTable: [StageOption<Self>] { [StageOption("margin", \.margin)] }

    /// The stage's name and options: what `describe` prints and the stage cache's fingerprint hashes.
    var definition: StageDefinition { StageDefinition("reject-border-faces", optionsOf: self) }

    /// It changes only the faces' records, so a rerun may reuse its results.
    var caching: StageCaching { .records }

    /// Checked once, when the pipeline is compiled (exit 2 before any picture is read).
    func validate() throws(PipelineError) {
        guard margin >= 0, margin.isFinite else {
            throw .invalidOption(stage: "reject-border-faces", option: "margin", reason: "must be a number of pixels ≥ 0, got \(margin)")
        }
    }

    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let width = Float(frame.record.width), height = Float(frame.record.height)
        frame.reject(reason: "within \(margin) px of the border") { face in
            face.box.x <= margin || face.box.y <= margin
                || face.box.x + face.box.width >= width - margin
                || face.box.y + face.box.height >= height - margin
        }
        return frame
    }
}
