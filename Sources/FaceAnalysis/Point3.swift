/// A landmark in image pixels with relative depth: `z` is on the same scale
/// as `x` (MediaPipe's convention), smaller is closer to the camera.
public struct Point3: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var z: Float
    public init(x: Float, y: Float, z: Float) { self.x = x; self.y = y; self.z = z }
}
