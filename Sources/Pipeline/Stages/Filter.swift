/// Keeps the faces a predicate accepts; the others stay in the record as
/// rejected with `reason`. Works after ``DetectFaces`` (boxes, scores) or after
/// a ``ForEachFace`` that added pose, classification or quality.
///
/// The predicate cannot be hashed, so `name` identifies it in `describe` and
/// in the fingerprint: give a different name whenever the predicate changes.
public struct Filter: Stage {
    public var name: String
    public var reason: String
    let predicate: @Sendable (FaceRecord, EntryRecord) -> Bool

    /// - Parameters:
    ///   - name: identifies the predicate (fingerprint, `describe`).
    ///   - reason: recorded for faces the predicate rejects (defaults to `name`).
    ///   - predicate: true to keep the face.
    public init(_ name: String, reason: String? = nil,
                _ predicate: @escaping @Sendable (_ face: FaceRecord, _ image: EntryRecord) -> Bool) {
        self.name = name
        self.reason = reason ?? name
        self.predicate = predicate
    }

    public static var optionTable: [StageOption<Self>] { [StageOption("name", \.name), StageOption("reason", \.reason)] }

    public var definition: StageDefinition { StageDefinition("filter", optionsOf: self) }

    public var caching: StageCaching { .records }

    public func validate() throws(PipelineError) {
        guard !name.isEmpty else {
            throw .invalidOption(stage: "filter", option: "name", reason: "must not be empty (it identifies the predicate)")
        }
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let record = frame.record
        frame.reject(reason: reason) { !predicate($0, record) }
        return frame
    }
}
