/// An axis-aligned rectangle in image pixels, origin top-left.
public struct Rect: Sendable, Hashable, Codable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}
