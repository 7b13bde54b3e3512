/// A point in image pixels, origin top-left, x right, y down.
public struct Point: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public init(x: Float, y: Float) { self.x = x; self.y = y }
}
