import Foundation

/// Head orientation from the 3D face mesh, in **degrees** with ML Kit's signs:
/// - `roll` (Euler Z): positive = head tilted counter-clockwise as seen in the image
/// - `yaw` (Euler Y): positive = face turned toward the image's right
/// - `pitch` (Euler X): positive = face turned up
///
/// Method: with the mesh in a right-handed frame (x right, y up, z toward the
/// camera; the mesh's `z` is depth on the x scale, so it is negated), the
/// face's x axis runs from the right eye's corners (33, 133) to the left
/// eye's (362, 263); its y axis from the chin (152) to the forehead (10),
/// made orthogonal to x; its normal is their cross product. Roll is the x
/// axis's angle in the image plane; after turning the normal back by the
/// roll, yaw is `asin` of its x and pitch `atan2` of its y and z, plus `pitchOffset` because the
/// forehead–chin line leans back by that much on a face looking straight at
/// the camera (measured on frontal photos: astronaut, takeo).
public struct HeadPose: Sendable, Hashable, Codable {
    public var roll: Float
    public var yaw: Float
    public var pitch: Float

    /// Degrees added to the raw pitch (see above).
    public static let pitchOffset: Float = 8

    public init(roll: Float, yaw: Float, pitch: Float) {
        self.roll = roll; self.yaw = yaw; self.pitch = pitch
    }

    public init(_ landmarks: FaceLandmarks) {
        let mesh = landmarks.mesh
        guard mesh.count == FaceLandmarks.meshPointCount else { self.init(roll: 0, yaw: 0, pitch: 0); return }
        func p(_ i: Int) -> SIMD3<Float> { SIMD3(mesh[i].x, -mesh[i].y, -mesh[i].z) }
        func normalized(_ v: SIMD3<Float>) -> SIMD3<Float>? {
            let length = (v * v).sum().squareRoot()
            return length > 1e-6 && length.isFinite ? v / length : nil
        }
        let right = (p(33) + p(133)) / 2, left = (p(362) + p(263)) / 2
        guard let ex = normalized(left - right) else { self.init(roll: 0, yaw: 0, pitch: 0); return }
        let up = p(10) - p(152)
        guard let ey = normalized(up - (up * ex).sum() * ex) else { self.init(roll: 0, yaw: 0, pitch: 0); return }
        let ez = SIMD3(ex.y * ey.z - ex.z * ey.y, ex.z * ey.x - ex.x * ey.z, ex.x * ey.y - ex.y * ey.x)
        let degrees: Float = 180 / .pi
        let rollAngle = atan2(ex.y, ex.x)
        // Undo the roll (a turn about the camera axis) before reading yaw and pitch off the normal.
        let c = cos(rollAngle), s = sin(rollAngle)
        let nx = c * ez.x + s * ez.y, ny = -s * ez.x + c * ez.y
        let roll = rollAngle * degrees
        let yaw = asin(min(max(nx, -1), 1)) * degrees
        var pitch = atan2(ny, ez.z) * degrees + Self.pitchOffset
        if pitch > 180 { pitch -= 360 }
        self.init(roll: roll.isFinite ? roll : 0, yaw: yaw.isFinite ? yaw : 0, pitch: pitch.isFinite ? pitch : 0)
    }

    /// Radians, for Apple Vision users (same signs).
    public var rollRadians: Float { roll * .pi / 180 }
    public var yawRadians: Float { yaw * .pi / 180 }
    public var pitchRadians: Float { pitch * .pi / 180 }
}
