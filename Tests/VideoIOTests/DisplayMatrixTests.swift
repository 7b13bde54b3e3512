import Foundation
import Testing
import VideoIO
import _TestSupport

/// A display matrix that mirrors the picture (a front camera's clip) is
/// refused by name, not taken as a turn: a horizontal flip reads as a 180°
/// turn to `av_display_rotation_get`, which frames upside down would have
/// been. Turns alone still work (`VideoDecoderTests`).
@Suite struct DisplayMatrixTests {
    struct Matrix: Sendable, CustomStringConvertible {
        var name: String
        /// a, b, c, d of the 2×2 part, in 16.16 fixed point.
        var values: [Int32]
        var mirrored: Bool
        var rotation: Int
        var description: String { name }
    }

    static let matrices: [Matrix] = [
        Matrix(name: "horizontal flip", values: [-65536, 0, 0, 65536], mirrored: true, rotation: 0),
        Matrix(name: "vertical flip", values: [65536, 0, 0, -65536], mirrored: true, rotation: 0),
        Matrix(name: "transpose", values: [0, 65536, 65536, 0], mirrored: true, rotation: 0),
        Matrix(name: "180° turn", values: [-65536, 0, 0, -65536], mirrored: false, rotation: 180),
    ]

    @Test(arguments: matrices)
    func aMirroringMatrixIsRefusedAndATurnIsRead(_ matrix: Matrix) throws {
        let clips = try VideoClips()
        let file = try clips.make("clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10:duration=0.3",
                                               "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        try MP4TrackMatrix.patch(file, matrix.values)
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))), name: "selfie.mp4")
        if matrix.mirrored {
            #expect(decoded.error == .mirrored("selfie.mp4"), "rotation \(decoded.info?.rotation ?? -1)")
            #expect(decoded.frames.isEmpty)
            #expect("\(decoded.error!)".contains("mirrored by its display matrix"))
        } else {
            #expect(decoded.error == nil)
            #expect(decoded.info?.rotation == matrix.rotation)
        }
    }

    @Test func aContainerOfTwoVideoStreamsSaysSoAndWhichIsDecoded() throws {
        let clips = try VideoClips()
        let file = try clips.make("two.mkv", ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10:duration=0.3",
                                              "-f", "lavfi", "-i", "color=c=red:s=64x48:r=10:d=0.3",
                                              "-map", "0:v", "-map", "1:v", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let decoded = VideoClips.decodeAll(.bytes([UInt8](try Data(contentsOf: file))))
        #expect(decoded.error == nil)
        #expect(decoded.info?.videoStreams == 2)
        #expect(decoded.info?.streamNumber == 1)
        #expect(decoded.info?.width == 96)
    }
}
