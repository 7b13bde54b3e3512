import ImageCore
import Foundation
import Testing

@Test func pointRoundTripsThroughJSON() throws {
    let point = Point(x: 1.5, y: -2)
    let decoded = try JSONDecoder().decode(Point.self, from: JSONEncoder().encode(point))
    #expect(decoded == point)
}
