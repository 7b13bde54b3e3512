import Pipeline
import Testing

/// Typed worker resources (``StageResourceKey``): a key's value comes back
/// as the key's `Value`, made once per context, and two keys with the same
/// `Value` type hold two values.
struct StageResourceKeyTests {
    static let made = CallCounter()

    /// Two keys whose values are both `[Int]`.
    enum EvenNumbers: StageResourceKey {
        static func makeValue(shared: SharedResources) -> [Int] {
            made.hit("even")
            return [0, 2, 4]
        }
    }
    enum OddNumbers: StageResourceKey {
        static func makeValue(shared: SharedResources) -> [Int] {
            made.hit("odd")
            return [1, 3]
        }
    }

    @Test func keysWithTheSameValueTypeHoldTheirOwnValues() throws {
        let context = StageContext(shared: SharedResources(), worker: 0)
        let even: [Int] = try context.resource(EvenNumbers.self)
        let odd: [Int] = try context.resource(OddNumbers.self)
        #expect(even == [0, 2, 4])
        #expect(odd == [1, 3])
        #expect(try context.resource(EvenNumbers.self) == [0, 2, 4])
        #expect(try context.resource(OddNumbers.self) == [1, 3])
        #expect(Self.made.count("even") == 1, "made once, then kept")
        #expect(Self.made.count("odd") == 1)

        let other = StageContext(shared: SharedResources(), worker: 1)
        _ = try other.resource(EvenNumbers.self)
        #expect(Self.made.count("even") == 2, "each worker's context makes its own")
    }
}
