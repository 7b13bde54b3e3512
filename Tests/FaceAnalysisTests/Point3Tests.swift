import FaceAnalysis
import Foundation
import Testing

@Test func point3RoundTripsThroughJSON() throws {
    let point = Point3(x: 1.5, y: -2, z: 0.25)
    let decoded = try JSONDecoder().decode(Point3.self, from: JSONEncoder().encode(point))
    #expect(decoded == point)
}
