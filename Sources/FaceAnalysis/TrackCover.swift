import ImageCore

/// Where a tracked face must still be covered in frames where the detector
/// did not report it: redacting video favours recall, and a face the
/// detector misses for a frame or two between detections, or in the frames
/// before it is first found and after it is last found, is still there.
///
/// Feed the tracked faces of each frame in order (``add(_:)``); a frame's
/// extra regions are final once `reach` later frames have been seen, so at
/// most `reach + 1` frames are pending. For a track not reported in frame
/// `t`, with its nearest reports at frames `s < t` and `u > t`:
/// - both within `reach` frames: the box interpolated between them (a gap);
/// - only `s`: the box carried on with the track's motion from its report
///   before `s`, when that is within `reach` frames of `s` (a tail);
/// - only `u`: the box of `u` (a lead: the frames before a face is found).
/// A carried or held box grows by `growth` of its size per frame away from the
/// report on each side, because the face may move or change size unseen.
/// Deterministic: the same reports give the same regions.
public struct TrackCover: Sendable {
    /// A region to cover in a frame where its track was not reported.
    public struct Region: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case gap, tail, lead }
        public var trackID: Int
        public var box: Rect
        public var kind: Kind
        public init(trackID: Int, box: Rect, kind: Kind) {
            self.trackID = trackID; self.box = box; self.kind = kind
        }
    }

    /// One frame's extra regions, final.
    public struct Frame: Sendable, Hashable {
        /// The frame's position in the sequence given to ``add(_:)`` (0-based).
        public var position: Int
        /// Ascending by track id.
        public var regions: [Region]
        public init(position: Int, regions: [Region]) {
            self.position = position; self.regions = regions
        }
    }

    /// Frames before, after and between reports that a track still covers.
    public let reach: Int
    /// Growth of a carried box per frame away from its report, as a fraction of its size on each side.
    public let growth: Float

    /// Reports per track, ascending by position; trimmed to what pending frames need.
    private var reports: [Int: [(position: Int, box: Rect)]] = [:]
    /// Positions added but not yet final.
    private var pending: [Int] = []
    private var nextPosition = 0

    public init(reach: Int = 3, growth: Float = 0.1) {
        precondition(reach >= 0, "reach must be ≥ 0")
        self.reach = reach
        self.growth = growth
    }

    /// Adds the next frame's tracked faces; returns the frames that became
    /// final (the oldest pending ones), in order.
    public mutating func add(_ faces: [(trackID: Int, box: Rect)]) -> [Frame] {
        let position = nextPosition
        nextPosition += 1
        for face in faces { reports[face.trackID, default: []].append((position, face.box)) }
        pending.append(position)
        var done: [Frame] = []
        while let oldest = pending.first, position - oldest >= reach {
            done.append(finalize(oldest, seenThrough: position))
            pending.removeFirst()
        }
        trim()
        return done
    }

    /// Makes every pending frame final (the end of the sequence).
    public mutating func finish() -> [Frame] {
        let last = nextPosition - 1
        let done = pending.map { finalize($0, seenThrough: last) }
        pending.removeAll()
        reports.removeAll()
        return done
    }

    private func finalize(_ t: Int, seenThrough last: Int) -> Frame {
        var regions: [Region] = []
        for id in reports.keys.sorted() {
            let list = reports[id]!
            if list.contains(where: { $0.position == t }) { continue }
            let before = list.last { $0.position < t }
            let after = list.first { $0.position > t && $0.position <= last }
            let s = before.flatMap { t - $0.position <= reach ? $0 : nil }
            let u = after.flatMap { $0.position - t <= reach ? $0 : nil }
            switch (s, u) {
            case let (s?, u?):
                let f = Float(t - s.position) / Float(u.position - s.position)
                regions.append(Region(trackID: id, box: Self.mix(s.box, u.box, f), kind: .gap))
            case let (s?, nil):
                let previous = list.last { $0.position < s.position && s.position - $0.position <= reach }
                regions.append(Region(trackID: id, box: carry(s, from: previous, to: t), kind: .tail))
            case let (nil, u?):
                regions.append(Region(trackID: id, box: carry(u, from: nil, to: t), kind: .lead))
            case (nil, nil):
                continue
            }
        }
        return Frame(position: t, regions: regions)
    }

    /// `report`'s box moved to position `t` with the motion per frame
    /// between `other` and `report` (none without `other`), grown with distance.
    private func carry(_ report: (position: Int, box: Rect), from other: (position: Int, box: Rect)?, to t: Int) -> Rect {
        var box = report.box
        if let other, other.position != report.position {
            let frames = Float(report.position - other.position)
            let steps = Float(t - report.position)
            box.x += (report.box.x - other.box.x) / frames * steps
            box.y += (report.box.y - other.box.y) / frames * steps
        }
        let grow = growth * Float(abs(t - report.position))
        return Rect(x: box.x - grow * box.width, y: box.y - grow * box.height,
                    width: box.width * (1 + 2 * grow), height: box.height * (1 + 2 * grow))
    }

    private static func mix(_ a: Rect, _ b: Rect, _ f: Float) -> Rect {
        Rect(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f,
             width: a.width + (b.width - a.width) * f, height: a.height + (b.height - a.height) * f)
    }

    /// Drops reports no pending frame can reach: a frame `t` reads reports
    /// from `t - 2 × reach` on (a tail's report and the one before it).
    private mutating func trim() {
        guard let oldest = pending.first else { return }
        let horizon = oldest - 2 * reach
        for id in Array(reports.keys) {
            let list = reports[id]!
            guard let first = list.firstIndex(where: { $0.position >= horizon }) else {
                reports[id] = nil
                continue
            }
            if first > 0 { reports[id] = Array(list.dropFirst(first)) }
        }
    }
}
