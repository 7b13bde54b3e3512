import FaceAnalysis
import ImageCore
import Testing

/// The rotated-ROI map: the tensor's corners land on the square's corners,
/// and model outputs map back through the same geometry.
@Test func regionOfInterestMapsTensorCornersToTheSquareCorners() {
    let roi = RotatedSquare(centerX: 100, centerY: 50, side: 40, rotation: .pi / 2)
    let map = roi.samplingTransform(tensorSize: 192)
    // x axis along (0, 1), y axis along (−1, 0): the top-left corner is centre + (20, −20).
    let corners = [(Point(x: 0, y: 0), Point(x: 120, y: 30)), (Point(x: 192, y: 192), Point(x: 80, y: 70)),
                   (Point(x: 96, y: 96), Point(x: 100, y: 50))]
    for (tensor, image) in corners {
        let mapped = map.map(tensor)
        #expect(abs(mapped.x - image.x) < 1e-3 && abs(mapped.y - image.y) < 1e-3)
        let back = roi.toImage(x: tensor.x, y: tensor.y, z: 0, tensorSize: 192)
        #expect(abs(back.x - image.x) < 1e-3 && abs(back.y - image.y) < 1e-3)
    }
}
