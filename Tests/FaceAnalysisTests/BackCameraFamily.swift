import FaceAnalysis

/// A third detector family, added the way any is: one row. MediaPipe's
/// back-camera BlazeFace (256×256, in the model catalogue, run by no mode)
/// with its SSD anchor layout (strides 16 and 32, 2 and 6 anchors per
/// cell: 896 anchors), decoded as the other BlazeFace families. The tests
/// in DetectorFamilyTests.swift run it through the machinery every mode uses.
extension DetectorFamily {
    static let blazeFaceBackCamera = DetectorFamily(
        name: "blazeface-back-camera", model: .backCameraDetector,
        decoding: .anchors(DetectorConfiguration(model: .backCameraDetector, strides: [16, 32], anchorsPerCell: [2, 6], totalStride: 32)),
        searches: [.wholeFrame])
}
