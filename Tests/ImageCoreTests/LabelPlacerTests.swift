import ImageCore
import Testing

/// A face box and the picture it lies in, for label placement.
struct LabelPlacementCase: Sendable, CustomTestStringConvertible {
    let name: String
    let pictureWidth: Int
    let pictureHeight: Int
    let box: LabelPlacer.Box
    var testDescription: String { "\(name): \(box) in \(pictureWidth)×\(pictureHeight)" }

    static let all: [LabelPlacementCase] = [
        LabelPlacementCase(name: "open space", pictureWidth: 640, pictureHeight: 427, box: .init(x: 300, y: 200, width: 30, height: 30)),
        LabelPlacementCase(name: "right edge", pictureWidth: 640, pictureHeight: 427, box: .init(x: 612, y: 200, width: 28, height: 28)),
        LabelPlacementCase(name: "past the right edge", pictureWidth: 640, pictureHeight: 427, box: .init(x: 630, y: 200, width: 40, height: 40)),
        LabelPlacementCase(name: "top-left corner", pictureWidth: 640, pictureHeight: 427, box: .init(x: 0, y: 0, width: 24, height: 24)),
        LabelPlacementCase(name: "bottom-right corner", pictureWidth: 640, pictureHeight: 427, box: .init(x: 610, y: 400, width: 30, height: 27)),
        LabelPlacementCase(name: "past the top-left corner", pictureWidth: 640, pictureHeight: 427, box: .init(x: -15, y: -12, width: 40, height: 40)),
        LabelPlacementCase(name: "whole picture", pictureWidth: 320, pictureHeight: 240, box: .init(x: 0, y: 0, width: 320, height: 240)),
        LabelPlacementCase(name: "12 MP, small face at the edge", pictureWidth: 4000, pictureHeight: 3000, box: .init(x: 3977, y: 2980, width: 23, height: 20)),
    ]
}

/// A 98 × 20 label: "#12 0.93" at scale 2 with its padding.
private let labelWidth = 98, labelHeight = 20

private func isInside(_ label: LabelPlacer.Box, width: Int, height: Int) -> Bool {
    label.x >= 0 && label.y >= 0 && label.maxX <= width && label.maxY <= height
}

@Test(arguments: LabelPlacementCase.all)
func labelsStayInsideThePicture(_ c: LabelPlacementCase) {
    var placer = LabelPlacer(pictureWidth: c.pictureWidth, pictureHeight: c.pictureHeight, obstacles: [c.box])
    let label = placer.place(width: labelWidth, height: labelHeight, beside: c.box)
    #expect(label.width == labelWidth && label.height == labelHeight)
    #expect(isInside(label, width: c.pictureWidth, height: c.pictureHeight), "\(label)")
}

@Test func aLabelGoesAboveTheBoxWhenThereIsRoom() {
    let box = LabelPlacer.Box(x: 300, y: 200, width: 30, height: 30)
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: [box])
    #expect(placer.place(width: labelWidth, height: labelHeight, beside: box) == .init(x: 300, y: 180, width: labelWidth, height: labelHeight))
}

@Test func aLabelAtTheTopEdgeGoesBelowTheBox() {
    let box = LabelPlacer.Box(x: 300, y: 5, width: 30, height: 30)
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: [box])
    #expect(placer.place(width: labelWidth, height: labelHeight, beside: box) == .init(x: 300, y: 35, width: labelWidth, height: labelHeight))
}

@Test func aLabelAtTheRightEdgeShiftsLeftAndStaysAboveItsBox() {
    let box = LabelPlacer.Box(x: 612, y: 200, width: 28, height: 28)
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: [box])
    let label = placer.place(width: labelWidth, height: labelHeight, beside: box)
    #expect(label.maxX == 640 && label.maxY == box.y)
}

@Test func aFaceFillingThePictureIsLabelledInside() {
    let box = LabelPlacer.Box(x: 0, y: 0, width: 320, height: 240)
    var placer = LabelPlacer(pictureWidth: 320, pictureHeight: 240, obstacles: [box])
    #expect(placer.place(width: labelWidth, height: labelHeight, beside: box) == .init(x: 0, y: 0, width: labelWidth, height: labelHeight))
}

@Test func aLabelAvoidsTheBoxOfTheFaceAboveIt() {
    let lower = LabelPlacer.Box(x: 100, y: 100, width: 40, height: 40)
    let upper = LabelPlacer.Box(x: 90, y: 60, width: 40, height: 32)
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: [upper, lower])
    let label = placer.place(width: labelWidth, height: labelHeight, beside: lower)
    #expect(label.overlapArea(upper) == 0 && label.overlapArea(lower) == 0, "\(label)")
    #expect(label.y == lower.maxY, "below its own box: \(label)")
}

@Test func aLaterLabelMovesOffAnEarlierOne() {
    // Two faces side by side: the second's label above-left would cover the first's.
    let first = LabelPlacer.Box(x: 100, y: 100, width: 40, height: 40)
    let second = LabelPlacer.Box(x: 150, y: 100, width: 40, height: 40)
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: [first, second], spacing: 2)
    let a = placer.place(width: labelWidth, height: labelHeight, beside: first)
    let b = placer.place(width: labelWidth, height: labelHeight, beside: second)
    #expect(a == .init(x: 100, y: 80, width: labelWidth, height: labelHeight))
    #expect(b.overlapArea(a.grown(by: 2)) == 0, "\(a) and \(b)")
}

/// Pseudo-random faces, 18–64 px, some overlapping, in a 640 × 427
/// thumbnail: a label for each, none on another, all inside.
@Test(arguments: [UInt32(1), 7, 42, 0xBEEF, 0xFACE])
func crowdedLabelsNeverOverlap(_ seed: UInt32) {
    var state = seed
    func next(_ range: Int) -> Int {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5
        return Int(state % UInt32(range))
    }
    let boxes = (0..<24).map { _ -> LabelPlacer.Box in
        let side = 18 + next(47)
        return LabelPlacer.Box(x: next(640 - side), y: next(427 - side), width: side, height: side)
    }
    var placer = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: boxes, spacing: 2)
    let labels = boxes.enumerated().map { index, box in
        placer.place(width: index % 3 == 0 ? 146 : labelWidth, height: labelHeight, beside: box)
    }
    for (i, label) in labels.enumerated() {
        #expect(isInside(label, width: 640, height: 427), "label \(i): \(label)")
        for j in 0..<i {
            #expect(label.overlapArea(labels[j].grown(by: 2)) == 0, "labels \(j) \(labels[j]) and \(i) \(label)")
        }
    }
    // The same requests give the same places.
    var again = LabelPlacer(pictureWidth: 640, pictureHeight: 427, obstacles: boxes, spacing: 2)
    #expect(boxes.enumerated().map { again.place(width: $0 % 3 == 0 ? 146 : labelWidth, height: labelHeight, beside: $1) } == labels)
}

/// With no room left at all, the label still lies inside the picture, on
/// the fewest placed pixels.
@Test func aFullPictureStillGetsItsLabelInside() {
    let box = LabelPlacer.Box(x: 40, y: 40, width: 20, height: 20)
    var placer = LabelPlacer(pictureWidth: 100, pictureHeight: 60, obstacles: [box])
    _ = placer.place(width: 100, height: 60, beside: box)
    let second = placer.place(width: 50, height: 20, beside: box)
    #expect(isInside(second, width: 100, height: 60))
}

@Test func coveringBoxesHoldTheStroke() {
    let box = LabelPlacer.Box(covering: Rect(x: 10.2, y: 20.7, width: 30.1, height: -10), outset: 1.5)
    #expect(box == .init(x: 8, y: 9, width: 34, height: 14))
    #expect(LabelPlacer.Box(covering: Rect(x: .nan, y: 0, width: 1, height: 1)) == nil)
    #expect(LabelPlacer.Box(covering: Rect(x: 0, y: 0, width: .infinity, height: 1)) == nil)
}
