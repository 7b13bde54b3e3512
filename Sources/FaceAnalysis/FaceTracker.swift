import ImageCore

/// Follows faces through an ordered sequence of images (video frames, a
/// burst), Mobile Vision style: each face gets a tracking id that it keeps
/// while it stays visible; a face not seen in a frame is `missing`, and
/// after more than `maxMissingFrames` consecutive misses its id is `done`
/// and never reused.
///
/// Matching is greedy and deterministic: all (track, face) pairs whose box
/// IoU is at least `minIoU`, or whose distance is within `maxCentreDistance`
/// face widths, are ranked by IoU (then distance, then index) and taken best
/// first, each track and face at most once. The distance is the mean distance
/// between corresponding landmarks when both the track and the face have the
/// same number of them (the detector's 6 keypoints), otherwise the distance
/// between box centres. Not thread-safe: one tracker per sequence.
public struct FaceTracker: Sendable {
    public struct Configuration: Sendable, Hashable, Codable {
        /// Frames a track may go unmatched before it is done (default 3).
        public var maxMissingFrames: Int
        public var minIoU: Float
        /// Largest landmark (or centre) distance for a match, in units of the
        /// track's box width (default 0.5).
        public var maxCentreDistance: Float
        public init(maxMissingFrames: Int = 3, minIoU: Float = 0.3, maxCentreDistance: Float = 0.5) {
            self.maxMissingFrames = maxMissingFrames; self.minIoU = minIoU; self.maxCentreDistance = maxCentreDistance
        }
    }

    /// Mobile Vision's tracker callbacks as values.
    public enum Event: Sendable, Hashable {
        /// A face seen for the first time; `face` indexes the frame's detections.
        case new(id: Int, face: Int)
        /// A tracked face seen again.
        case update(id: Int, face: Int)
        /// A tracked face not seen in this frame (still within the budget).
        case missing(id: Int)
        /// A track retired; its id will not come back.
        case done(id: Int)
    }

    struct Track: Sendable {
        var id: Int
        var box: Rect
        var landmarks: [Point]
        var missed: Int
    }

    public let configuration: Configuration
    var tracks: [Track] = []
    var nextID = 1

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Ids of the tracks still alive (seen or missing), ascending.
    public var activeIDs: [Int] { tracks.map(\.id) }

    /// Feeds one frame's face boxes (any order) and returns the id of each
    /// face (same order) and the events, ordered: new/update by face index,
    /// then missing and done by id.
    public mutating func update(with boxes: [Rect]) -> (ids: [Int], events: [Event]) {
        update(with: boxes, landmarks: [[Point]](repeating: [], count: boxes.count))
    }

    /// Like ``update(with:)``, with each face's landmarks (e.g. the detector
    /// keypoints, in the same order for every face) used for the distance.
    public mutating func update(with boxes: [Rect], landmarks: [[Point]]) -> (ids: [Int], events: [Event]) {
        precondition(landmarks.count == boxes.count, "one landmark list per box")
        var pairs: [(iou: Float, distance: Float, track: Int, face: Int)] = []
        for (t, track) in tracks.enumerated() {
            for (f, box) in boxes.enumerated() {
                let iou = track.box.intersectionOverUnion(box)
                let width = max(track.box.width, 1e-3)
                let distance = Self.distance(from: track, to: box, landmarks: landmarks[f]) / width
                guard iou.isFinite, distance.isFinite else { continue }
                if iou >= configuration.minIoU || distance <= configuration.maxCentreDistance {
                    pairs.append((iou, distance, t, f))
                }
            }
        }
        pairs.sort { a, b in
            if a.iou != b.iou { return a.iou > b.iou }
            if a.distance != b.distance { return a.distance < b.distance }
            return (a.track, a.face) < (b.track, b.face)
        }
        var faceTrack = [Int?](repeating: nil, count: boxes.count)
        var trackTaken = [Bool](repeating: false, count: tracks.count)
        for pair in pairs where faceTrack[pair.face] == nil && !trackTaken[pair.track] {
            faceTrack[pair.face] = pair.track
            trackTaken[pair.track] = true
        }
        var ids = [Int](repeating: 0, count: boxes.count)
        var events: [Event] = []
        for (f, box) in boxes.enumerated() {
            if let t = faceTrack[f] {
                tracks[t].box = box
                tracks[t].landmarks = landmarks[f]
                tracks[t].missed = 0
                ids[f] = tracks[t].id
                events.append(.update(id: tracks[t].id, face: f))
            } else {
                ids[f] = nextID
                events.append(.new(id: nextID, face: f))
                tracks.append(Track(id: nextID, box: box, landmarks: landmarks[f], missed: 0))
                trackTaken.append(true)
                nextID += 1
            }
        }
        var survivors: [Track] = []
        for (t, track) in tracks.enumerated() {
            if trackTaken[t] { survivors.append(track); continue }
            var track = track
            track.missed += 1
            if track.missed > configuration.maxMissingFrames {
                events.append(.done(id: track.id))
            } else {
                events.append(.missing(id: track.id))
                survivors.append(track)
            }
        }
        tracks = survivors.sorted { $0.id < $1.id }
        return (ids, events)
    }

    /// Mean landmark distance when both sides have matching landmarks, else centre distance (pixels).
    static func distance(from track: Track, to box: Rect, landmarks: [Point]) -> Float {
        guard !landmarks.isEmpty, landmarks.count == track.landmarks.count else {
            let dx = track.box.centerX - box.centerX, dy = track.box.centerY - box.centerY
            return (dx * dx + dy * dy).squareRoot()
        }
        var sum: Float = 0
        for (a, b) in zip(track.landmarks, landmarks) {
            let dx = a.x - b.x, dy = a.y - b.y
            sum += (dx * dx + dy * dy).squareRoot()
        }
        return sum / Float(landmarks.count)
    }

    /// Retires every remaining track (end of the sequence): `done` events by id.
    public mutating func finish() -> [Event] {
        defer { tracks.removeAll() }
        return tracks.map { .done(id: $0.id) }
    }
}
