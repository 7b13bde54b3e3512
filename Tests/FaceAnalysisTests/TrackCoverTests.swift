import FaceAnalysis
import ImageCore
import Testing
import _TestSupport

struct TrackCoverTests {
    /// Runs `reports` (one list of (track, box) per frame) through a cover
    /// and returns every frame's regions, checking frames come out in order
    /// and never more than `reach + 1` are pending.
    static func cover(_ reports: [[(trackID: Int, box: Rect)]], reach: Int, growth: Float = 0.1) -> [[TrackCover.Region]] {
        var cover = TrackCover(reach: reach, growth: growth)
        var frames: [TrackCover.Frame] = []
        for (t, faces) in reports.enumerated() {
            frames += cover.add(faces)
            #expect(t + 1 - frames.count <= reach + 1, "frame \(t): \(t + 1 - frames.count) pending")
        }
        frames += cover.finish()
        #expect(frames.map(\.position) == Array(reports.indices))
        return frames.map(\.regions)
    }

    static func box(_ x: Float, _ y: Float = 100, size: Float = 40) -> Rect { Rect(x: x, y: y, width: size, height: size) }

    @Test func aGapBetweenReportsIsCoveredByTheInterpolatedBox() {
        // Reported at 0, 1, 2 and 5 (x = 10 px per frame), missed at 3 and 4.
        let reports: [[(trackID: Int, box: Rect)]] = (0..<6).map { t in
            [2, 0, 1, 5].contains(t) ? [(7, Self.box(Float(t) * 10, size: 40 + Float(t)))] : []
        }
        let regions = Self.cover(reports, reach: 3, growth: 0)
        #expect(regions[3] == [TrackCover.Region(trackID: 7, box: Self.box(30, size: 43), kind: .gap)])
        #expect(regions[4] == [TrackCover.Region(trackID: 7, box: Self.box(40, size: 44), kind: .gap)])
        for t in [0, 1, 2, 5] { #expect(regions[t].isEmpty, "frame \(t) has its report") }
    }

    @Test func aTrackIsCarriedOnWithItsMotionAfterItsLastReportAndHeldBeforeItsFirst() {
        // Track 1 moves right 10 px/frame in frames 0…4, then is gone; track 2 appears at 6.
        var reports: [[(trackID: Int, box: Rect)]] = Array(repeating: [], count: 12)
        for t in 0...4 { reports[t].append((1, Self.box(Float(t) * 10))) }
        for t in 6...11 { reports[t].append((2, Self.box(300, Float(t) * 5))) }
        let regions = Self.cover(reports, reach: 2, growth: 0.1)
        // Tail of track 1: frames 5 and 6, moved on and grown by 10 % per frame on each side.
        func grown(_ r: Rect, _ g: Float) -> Rect {
            Rect(x: r.x - g * r.width, y: r.y - g * r.height, width: r.width * (1 + 2 * g), height: r.height * (1 + 2 * g))
        }
        #expect(regions[5].filter { $0.trackID == 1 } == [.init(trackID: 1, box: grown(Self.box(50), 0.1), kind: .tail)])
        #expect(regions[6].filter { $0.trackID == 1 } == [.init(trackID: 1, box: grown(Self.box(60), 0.2), kind: .tail)])
        #expect(regions[7].filter { $0.trackID == 1 }.isEmpty, "beyond reach")
        // Lead of track 2: frames 4 and 5, its first box grown.
        #expect(regions[5].filter { $0.trackID == 2 } == [.init(trackID: 2, box: grown(Self.box(300, 30), 0.1), kind: .lead)])
        #expect(regions[4].filter { $0.trackID == 2 } == [.init(trackID: 2, box: grown(Self.box(300, 30), 0.2), kind: .lead)])
        #expect(regions[3].isEmpty)
        // Regions in a frame are ordered by track id.
        #expect(regions[5].map(\.trackID) == [1, 2])
    }

    @Test func aReachOfZeroCoversNothingAndLetsEachFrameGoAtOnce() {
        let reports: [[(trackID: Int, box: Rect)]] = [[(1, Self.box(0))], [], [(1, Self.box(20))]]
        var cover = TrackCover(reach: 0)
        #expect(cover.add(reports[0]).map(\.position) == [0])
        #expect(cover.add(reports[1]) == [TrackCover.Frame(position: 1, regions: [])])
        #expect(cover.add(reports[2]).map(\.position) == [2])
        #expect(cover.finish().isEmpty)
    }

    /// Streaming (reports trimmed as frames go) gives what a cover that
    /// keeps every report would: the same regions as a direct reading of
    /// the rule over the whole sequence, on random tracks with misses.
    @Test(arguments: [1, 2, 3, 5])
    func streamingGivesTheRegionsOfTheWholeSequence(reach: Int) {
        var generator = SplitMix64(seed: UInt64(reach))
        var reports: [[(trackID: Int, box: Rect)]] = Array(repeating: [], count: 80)
        for id in 1...6 {
            let start = Int(generator.next() % 60), length = 5 + Int(generator.next() % 20)
            for t in start..<min(80, start + length) where generator.next() % 3 != 0 {
                reports[t].append((id, Self.box(Float(generator.next() % 500), Float(generator.next() % 300))))
            }
        }
        let streamed = Self.cover(reports, reach: reach)
        for t in reports.indices {
            var expected: [TrackCover.Region] = []
            for id in 1...6 where !reports[t].contains(where: { $0.trackID == id }) {
                let seen = reports.indices.filter { u in reports[u].contains { $0.trackID == id } }
                func at(_ u: Int) -> Rect { reports[u].first { $0.trackID == id }!.box }
                func carried(_ r: Int, _ other: Int?) -> Rect {
                    var b = at(r)
                    if let other {
                        b.x += (at(r).x - at(other).x) / Float(r - other) * Float(t - r)
                        b.y += (at(r).y - at(other).y) / Float(r - other) * Float(t - r)
                    }
                    let g = 0.1 * Float(abs(t - r))
                    return Rect(x: b.x - g * b.width, y: b.y - g * b.height, width: b.width * (1 + 2 * g), height: b.height * (1 + 2 * g))
                }
                let s = seen.last { $0 < t && t - $0 <= reach }, u = seen.first { $0 > t && $0 - t <= reach }
                switch (s, u) {
                case let (s?, u?):
                    let f = Float(t - s) / Float(u - s), a = at(s), b = at(u)
                    let box = Rect(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f,
                                   width: a.width + (b.width - a.width) * f, height: a.height + (b.height - a.height) * f)
                    expected.append(.init(trackID: id, box: box, kind: .gap))
                case let (s?, nil):
                    expected.append(.init(trackID: id, box: carried(s, seen.last { $0 < s && s - $0 <= reach }), kind: .tail))
                case let (nil, u?):
                    expected.append(.init(trackID: id, box: carried(u, nil), kind: .lead))
                case (nil, nil):
                    continue
                }
            }
            #expect(streamed[t] == expected, "frame \(t)")
        }
    }
}
