import ImageCore
import Testing

private func face(_ side: Float) -> Rect { Rect(x: 100, y: 100, width: side, height: side) }

/// Pictures a face may be drawn in: a thumbnail, a 2 MP and a 12 MP photo.
private let pictures: [(width: Int, height: Int)] = [(640, 427), (1600, 1200), (4000, 3000)]

@Test(arguments: [Float(20), 24, 30, 40])
func marksOnSmallFacesLeaveTheFaceVisible(_ side: Float) {
    for picture in pictures {
        let scale = AnnotationScale(face: face(side), pictureWidth: picture.width, pictureHeight: picture.height)
        // A keypoint dot's diameter is under a tenth of the face.
        #expect(2 * scale.dotRadius < side / 10 + 0.5, "\(side)-px face in \(picture): radius \(scale.dotRadius)")
        #expect(scale.dotRadius >= 0.75)
        #expect(scale.lineWidth >= 1 && scale.lineWidth <= side / 20, "\(side)-px face in \(picture): line \(scale.lineWidth)")
        #expect(scale.detailWidth >= 0.5 && scale.detailWidth <= scale.lineWidth)
        #expect(scale.meshDotRadius >= 0.5 && scale.meshDotRadius <= scale.dotRadius)
    }
}

@Test func marksGrowWithTheFaceUpToTheirCap() {
    for picture in pictures {
        var previous = AnnotationScale(face: face(10), pictureWidth: picture.width, pictureHeight: picture.height)
        for side in stride(from: Float(20), through: 3000, by: 10) {
            let scale = AnnotationScale(face: face(side), pictureWidth: picture.width, pictureHeight: picture.height)
            #expect(scale.lineWidth >= previous.lineWidth && scale.dotRadius >= previous.dotRadius
                    && scale.detailWidth >= previous.detailWidth && scale.meshDotRadius >= previous.meshDotRadius)
            previous = scale
        }
        // Capped by the picture: a face filling it has marks a small fraction of its short side.
        let short = Float(min(picture.width, picture.height))
        #expect(previous.lineWidth <= max(1, short / 200) && previous.dotRadius <= max(1.5, short / 150))
    }
    // A 600-px face in a 12 MP photo has a bold outline and visible dots.
    let large = AnnotationScale(face: face(600), pictureWidth: 4000, pictureHeight: 3000)
    #expect(large.lineWidth == 10 && large.dotRadius == 15 && large.detailWidth == 5)
}

@Test func degenerateBoxesGetTheSmallestMarks() {
    for box in [Rect(x: 0, y: 0, width: .nan, height: 5), Rect(x: 0, y: 0, width: .infinity, height: .infinity),
                Rect(x: 0, y: 0, width: 0, height: 0)] {
        let scale = AnnotationScale(face: box, pictureWidth: 640, pictureHeight: 480)
        #expect(scale == AnnotationScale(lineWidth: 1, detailWidth: 0.5, dotRadius: 0.75, meshDotRadius: 0.5))
    }
    // A negative-size box is measured by its magnitude.
    #expect(AnnotationScale(face: Rect(x: 0, y: 0, width: -120, height: -120), pictureWidth: 640, pictureHeight: 480)
            == AnnotationScale(face: face(120), pictureWidth: 640, pictureHeight: 480))
}

@Test func labelsAreReadableOnAThumbnailAndOnA12MPPhoto() {
    // Label height with padding is 10 × scale; text 8 × scale.
    #expect(AnnotationScale.labelScale(pictureWidth: 640, pictureHeight: 427) * 10 >= 11)
    #expect(AnnotationScale.labelScale(pictureWidth: 427, pictureHeight: 640) * 10 >= 11)
    #expect(AnnotationScale.labelScale(pictureWidth: 1920, pictureHeight: 1080) == 2)
    // On a 12 MP photo seen whole on a 1000-px-high screen the text is still 16 px.
    #expect(AnnotationScale.labelScale(pictureWidth: 4000, pictureHeight: 3000) == 6)
    #expect(AnnotationScale.labelScale(pictureWidth: 3000, pictureHeight: 4000) == 6)
    // Tiny pictures get the 1× font.
    #expect(AnnotationScale.labelScale(pictureWidth: 200, pictureHeight: 150) == 1)
}

@Test func aLabelScaleFitsTheTextAcrossThePicture() {
    let text = "#16 rejected"
    for width in [60, 100, 150, 300, 640] {
        let scale = AnnotationScale.labelScale(pictureWidth: width, pictureHeight: 2000, widestText: text)
        let labelWidth = BitmapFont.size(of: text, scale: scale).width + 2 * scale
        #expect(scale == 1 || labelWidth <= width, "\(width) px wide: scale \(scale)")
    }
    #expect(AnnotationScale.labelScale(pictureWidth: 0, pictureHeight: 0, widestText: text) == 1)
}
