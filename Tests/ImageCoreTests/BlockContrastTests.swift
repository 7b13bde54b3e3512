import ImageCore
import Testing

/// A grey image with one `block`×`block` square at (x, y) of alternating 0/255 columns.
private func grey(_ width: Int, _ height: Int, stripesAt x: Int, _ y: Int, side: Int) -> RGBImage {
    var image = RGBImage(width: width, height: height, fill: (128, 128, 128))
    for row in y..<(y + side) {
        for column in x..<(x + side) {
            let v: UInt8 = column % 2 == 0 ? 0 : 255
            let i = (row * width + column) * 3
            image.pixels[i] = v; image.pixels[i + 1] = v; image.pixels[i + 2] = v
        }
    }
    return image
}

@Test func flatImageHasNoBlockContrast() {
    let image = RGBImage(width: 64, height: 48, fill: (30, 200, 90))
    #expect(!image.hasBlockContrast(x: 0, y: 0, width: 64, height: 48, block: 16, deviation: 1))
    #expect(image.hasBlockContrast(x: 0, y: 0, width: 64, height: 48, block: 16, deviation: 0))
}

@Test func contrastIsFoundOnlyInTheBlockGridThatHoldsIt() {
    // Stripes fill the block at (32, 16): deviation 127.5 of 0/255 (luma 0 and 255).
    let image = grey(64, 48, stripesAt: 32, 16, side: 16)
    #expect(image.hasBlockContrast(x: 0, y: 0, width: 64, height: 48, block: 16, deviation: 127))
    #expect(!image.hasBlockContrast(x: 0, y: 0, width: 64, height: 48, block: 16, deviation: 128))
    // A region that stops before the stripes, or whose grid splits them into halves (still contrast).
    #expect(!image.hasBlockContrast(x: 0, y: 0, width: 32, height: 48, block: 16, deviation: 1))
    #expect(image.hasBlockContrast(x: 8, y: 8, width: 56, height: 40, block: 16, deviation: 60))
}

@Test(arguments: [((-40, -40, 80, 80), false), ((50, 30, 100, 100), false), ((60, 0, 10, 48), false),
                  ((48, 32, 16, 16), true), ((0, 0, 64, 48), true), ((-16, -16, 96, 80), true)])
func regionsAreClippedToTheImage(region: (x: Int, y: Int, width: Int, height: Int), expected: Bool) {
    // Stripes fill the last block (48, 32). A region is clipped to the image; its grid starts at the
    // clipped corner; a clipped region narrower than a block has no contrast.
    let image = grey(64, 48, stripesAt: 48, 32, side: 16)
    #expect(image.hasBlockContrast(x: region.x, y: region.y, width: region.width, height: region.height, block: 16, deviation: 100) == expected)
}
