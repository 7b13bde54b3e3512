import FaceAnalysis
import ImageCore
import Testing

struct FaceTrackerTests {
    /// A generated sequence: face A walks right, face B stands still then
    /// leaves after frame 3, face C enters at frame 5.
    @Test func idsFollowMovingFacesAndRetireAfterMissingFrames() {
        var tracker = FaceTracker(configuration: .init(maxMissingFrames: 2))
        func a(_ t: Int) -> Rect { Rect(x: 50 + Float(t) * 15, y: 100, width: 80, height: 80) }
        let b = Rect(x: 400, y: 120, width: 90, height: 90)
        func c(_ t: Int) -> Rect { Rect(x: 600 - Float(t) * 10, y: 300, width: 70, height: 70) }
        var idsA: [Int] = [], idsB: [Int] = [], idsC: [Int] = []
        var allEvents: [[FaceTracker.Event]] = []
        for t in 0..<10 {
            var boxes = [a(t)]
            if t <= 3 { boxes.append(b) }
            if t >= 5 { boxes.append(c(t)) }
            // Present the faces in a different order on odd frames.
            if t % 2 == 1 { boxes.reverse() }
            let (ids, events) = tracker.update(with: boxes)
            allEvents.append(events)
            for (box, id) in zip(boxes, ids) {
                if box == a(t) { idsA.append(id) } else if box == b { idsB.append(id) } else { idsC.append(id) }
            }
        }
        #expect(Set(idsA).count == 1 && idsA.count == 10)
        #expect(Set(idsB).count == 1 && idsB.count == 4)
        #expect(Set(idsC).count == 1 && idsC.count == 5)
        #expect(Set([idsA[0], idsB[0], idsC[0]]).count == 3)
        let bID = idsB[0]
        // B is missing at frames 4 and 5, done at frame 6.
        #expect(allEvents[4].contains(.missing(id: bID)))
        #expect(allEvents[5].contains(.missing(id: bID)))
        #expect(allEvents[6].contains(.done(id: bID)))
        #expect(!tracker.activeIDs.contains(bID))
        #expect(allEvents[5].contains { if case .new(idsC[0], _) = $0 { true } else { false } })
        #expect(tracker.finish().count == 2)
    }

    @Test func aFaceReturningAfterItsTrackIsDoneGetsANewID() {
        var tracker = FaceTracker(configuration: .init(maxMissingFrames: 1))
        let box = Rect(x: 10, y: 10, width: 50, height: 50)
        let first = tracker.update(with: [box]).ids[0]
        _ = tracker.update(with: [])
        _ = tracker.update(with: [])
        let again = tracker.update(with: [box]).ids[0]
        #expect(again != first)
    }

    @Test func crossingFacesAreMatchedGreedilyByOverlap() {
        var tracker = FaceTracker()
        let left = Rect(x: 0, y: 0, width: 100, height: 100), right = Rect(x: 120, y: 0, width: 100, height: 100)
        let ids = tracker.update(with: [left, right]).ids
        let moved = tracker.update(with: [Rect(x: 130, y: 0, width: 100, height: 100), Rect(x: 10, y: 0, width: 100, height: 100)]).ids
        #expect(moved == [ids[1], ids[0]])
    }

    @Test func landmarksSettleMatchesThatBoxesCannot() {
        // Two faces whose boxes coincide in the second frame (equal IoU with
        // both tracks): each keeps its id because its landmarks stay put.
        var tracker = FaceTracker()
        let first = Rect(x: 0, y: 0, width: 100, height: 100), second = Rect(x: 10, y: 0, width: 100, height: 100)
        let leftMarks = [Point(x: 20, y: 40), Point(x: 40, y: 40)], rightMarks = [Point(x: 80, y: 40), Point(x: 100, y: 40)]
        let ids = tracker.update(with: [first, second], landmarks: [leftMarks, rightMarks]).ids
        let shared = Rect(x: 5, y: 0, width: 100, height: 100)
        let shifted = { (marks: [Point]) in marks.map { Point(x: $0.x + 2, y: $0.y) } }
        let next = tracker.update(with: [shared, shared], landmarks: [shifted(rightMarks), shifted(leftMarks)]).ids
        #expect(next == [ids[1], ids[0]])
    }
}
