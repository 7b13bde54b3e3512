import FaceAnalysis
import Inference
import Testing
import _TestSupport

/// The strict reader of `models/yunet_s.weights`: a well-formed file with
/// the arrays `YuNetGraph` declares loads (and plans), and each way a
/// hostile file can differ is refused with an error naming the file.
@Suite struct YuNetWeightsTests {
    static let file = "/models/yunet_s.weights"

    /// (name, values) in the file's order, small pseudo-random values.
    static func arrays() -> [(String, [Float])] {
        var generator = SplitMix64(seed: 37)
        return YuNetGraph.arrays.keys.sorted().map { name in
            (name, (0..<YuNetGraph.arrays[name]!).map { _ in generator.unitFloat() * 0.2 - 0.1 })
        }
    }

    static func encode(_ arrays: [(String, [Float])], count: Int? = nil) -> [UInt8] {
        var bytes = Array("FPYUNET1".utf8)
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        put(UInt32(count ?? arrays.count))
        for (name, values) in arrays {
            put(UInt16(name.utf8.count))
            bytes += Array(name.utf8)
            put(UInt32(values.count))
            for value in values { put(value.bitPattern) }
        }
        return bytes
    }

    @Test func aWellFormedFileLoadsAndPlans() throws {
        let weights = try YuNetWeights(bytes: Self.encode(Self.arrays()), file: Self.file)
        #expect(weights.arrays.count == 106)
        #expect(weights.arrays.values.reduce(0) { $0 + $1.count } == 53_184)
        let model = try YuNetGraph.model(weights, height: 64, width: 96)
        #expect(model.outputs.map(\.shape) == [[1, 8, 12, 16], [1, 4, 6, 16], [1, 2, 3, 16]])
        #expect(model.statistics.parameters == 53_184 - 16 * 5)  // the stem's 5 unused padding channels per filter
    }

    struct Hostile: Sendable, CustomStringConvertible {
        var description: String
        var bytes: @Sendable () -> [UInt8]
        var error: YuNetWeightsError
    }

    static let hostile: [Hostile] = {
        let good = arrays()
        let f = file
        var cases: [Hostile] = []
        cases.append(Hostile(description: "bad magic", bytes: { Array("FPYUNET2".utf8) + encode(good).dropFirst(8) }, error: .badMagic(file: f)))
        cases.append(Hostile(description: "empty", bytes: { [] }, error: .badMagic(file: f)))
        cases.append(Hostile(description: "no count", bytes: { Array("FPYUNET1".utf8) + [1, 0] },
                             error: .truncated(file: f, what: "the array count", offset: 8)))
        cases.append(Hostile(description: "cut in the values", bytes: { Array(encode(good).dropLast(3)) },
                             error: .truncated(file: f, what: "the \(good.last!.1.count) values of array \(good.last!.0)",
                                              offset: encode(good).count - 4 * good.last!.1.count)))
        cases.append(Hostile(description: "count says one more", bytes: { encode(good, count: good.count + 1) },
                             error: .truncated(file: f, what: "the name length of array 106", offset: encode(good).count)))
        cases.append(Hostile(description: "huge count", bytes: { encode(good, count: 1 << 30) }, error: .tooManyArrays(file: f, count: 1 << 30)))
        cases.append(Hostile(description: "trailing bytes", bytes: { encode(good) + [0, 0] }, error: .trailingBytes(file: f, count: 2)))
        cases.append(Hostile(description: "missing array", bytes: { encode(Array(good.dropLast())) },
                             error: .missingArray(file: f, name: good.last!.0)))
        cases.append(Hostile(description: "unexpected array", bytes: { encode(good + [("zzz_extra_weight", [1])]) },
                             error: .unexpectedArray(file: f, name: "zzz_extra_weight")))
        cases.append(Hostile(description: "unsorted", bytes: { encode([good[1], good[0]] + good.dropFirst(2)) },
                             error: .unsorted(file: f, name: good[0].0, previous: good[1].0)))
        cases.append(Hostile(description: "duplicate", bytes: { encode([good[0], good[0]] + good.dropFirst(1)) },
                             error: .unsorted(file: f, name: good[0].0, previous: good[0].0)))
        var shortened = good
        shortened[3].1.removeLast()
        let short = shortened
        cases.append(Hostile(description: "wrong count", bytes: { encode(short) },
                             error: .wrongCount(file: f, name: good[3].0, expected: good[3].1.count, found: good[3].1.count - 1)))
        var withNaN = good
        withNaN[5].1[2] = .nan
        let nan = withNaN
        cases.append(Hostile(description: "NaN", bytes: { encode(nan) }, error: .nonFinite(file: f, name: good[5].0, index: 2)))
        var withInfinity = good
        withInfinity[0].1[0] = -.infinity
        let infinite = withInfinity
        cases.append(Hostile(description: "infinity", bytes: { encode(infinite) }, error: .nonFinite(file: f, name: good[0].0, index: 0)))
        cases.append(Hostile(description: "empty name", bytes: { encode([("", [1])] + good) }, error: .badName(file: f, offset: 12)))
        cases.append(Hostile(description: "name not UTF-8", bytes: {
            var bytes = encode(good)
            bytes[14] = 0xFF  // first byte of the first name
            return bytes
        }, error: .badName(file: f, offset: 12)))
        return cases
    }()

    @Test(arguments: hostile)
    func aHostileFileIsRefusedNamingIt(_ hostile: Hostile) {
        #expect(throws: hostile.error) { try YuNetWeights(bytes: hostile.bytes(), file: Self.file) }
        #expect(hostile.error.description.contains(Self.file))
    }
}
