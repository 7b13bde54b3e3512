import Foundation
import Testing
import _TestSupport

/// One entry of Tests/Fixtures/inference/cases.json: a model, how to build its
/// input, and the reference outputs ai-edge-litert produced for it.
struct ParityCase: Decodable, CustomTestStringConvertible, Sendable {
    var model: String
    var `case`: String
    /// "signed": values in [-1, 1] (detectors); "unit": [0, 1] (landmark models).
    var range: String
    var outputs: [String]
    var seed: UInt64?
    var crop: String?
    var upscale: Int?

    var testDescription: String { "\(model) \(`case`)" }

    static let all: [ParityCase] = {
        guard let data = try? Data(contentsOf: Fixtures.url("inference/cases.json")),
              let cases = try? JSONDecoder().decode([ParityCase].self, from: data)
        else { return [] }
        return cases
    }()

    /// The model input, built exactly as the reference script builds it.
    func input(count: Int) throws -> [Float] {
        if let seed {
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                let unit = generator.unitFloat()
                return range == "signed" ? unit * 2 - 1 : unit
            }
        }
        guard let crop else { throw ParityFixtureError("case \(testDescription) has neither seed nor crop") }
        let pixels = try Fixtures.bytes(Fixtures.url("inference/\(crop)"))
        let scale = upscale ?? 1
        let side = Int(Double(pixels.count / 3).squareRoot())
        guard side * side * 3 == pixels.count, side * scale * side * scale * 3 == count else {
            throw ParityFixtureError("crop \(crop) (\(pixels.count) bytes, upscale \(scale)) does not fill \(count) floats")
        }
        let outSide = side * scale
        var values = [Float](repeating: 0, count: count)
        for y in 0..<outSide {
            for x in 0..<outSide {
                for c in 0..<3 {
                    let p = Float(pixels[((y / scale) * side + x / scale) * 3 + c])
                    values[(y * outSide + x) * 3 + c] = range == "signed" ? p / 127.5 - 1 : p / 255
                }
            }
        }
        return values
    }

    /// Reference samples of output `index`: (stride, values at flat indices 0, stride, …).
    func reference(_ index: Int) throws -> (stride: Int, values: [Float]) {
        try SampledReference.read("inference/\(outputs[index])")
    }
}

/// A sampled reference output as the fixture scripts write it: UInt32 count,
/// UInt32 stride, then `count` float32 values (all little-endian).
enum SampledReference {
    static func read(_ path: String) throws -> (stride: Int, values: [Float]) {
        let bytes = try Fixtures.bytes(Fixtures.url(path))
        guard bytes.count >= 8 else { throw ParityFixtureError("\(path) is truncated") }
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        let count = Int(word(0)), stride = Int(word(4))
        guard bytes.count == 8 + 4 * count, stride >= 1 else { throw ParityFixtureError("\(path) has a bad header") }
        return (stride, (0..<count).map { Float(bitPattern: word(8 + 4 * $0)) })
    }
}

struct ParityFixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
