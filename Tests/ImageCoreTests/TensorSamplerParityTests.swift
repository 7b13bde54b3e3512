import Foundation
import ImageCore
import Testing
import _TestSupport

/// `TensorSampler.sample` with one tap runs in C (AVX2 gathers on interior
/// runs of eight pixels); it must give the Swift loop's floats bit for bit,
/// inside, across and outside the picture, mirrored or not.
@Suite struct TensorSamplerParityTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var width: Int, height: Int
        var transform: AffineMap
        var size: Int
        var testDescription: String { "\(width)x\(height) → \(size): \(transform)" }
    }

    /// A square of `side` picture pixels centred at (`cx`, `cy`), turned by
    /// `degrees`, mapped onto `size` tensor pixels (the crop the mesh and
    /// iris models get).
    static func rotated(side: Float, cx: Float, cy: Float, degrees: Float, size: Int) -> AffineMap {
        let angle = degrees * .pi / 180, scale = side / Float(size)
        let cosine = Float(cos(Double(angle))) * scale, sine = Float(sin(Double(angle))) * scale
        let half = Float(size) / 2
        return AffineMap(a: cosine, b: -sine, c: sine, d: cosine,
                         tx: cx - cosine * half + sine * half, ty: cy - sine * half - cosine * half)
    }

    static let cases: [Case] = [
        Case(width: 301, height: 211, transform: rotated(side: 120, cx: 150, cy: 100, degrees: 17, size: 64), size: 64),
        Case(width: 301, height: 211, transform: rotated(side: 260, cx: 40, cy: 190, degrees: -33, size: 64), size: 64),  // mostly outside
        Case(width: 301, height: 211, transform: rotated(side: 33, cx: 290, cy: 5, degrees: 90, size: 13), size: 13),  // corner, odd size
        Case(width: 640, height: 480, transform: rotated(side: 500, cx: 320, cy: 240, degrees: 180, size: 192), size: 192),
        Case(width: 640, height: 480, transform: rotated(side: 20, cx: 1, cy: 1, degrees: 45, size: 24), size: 24),  // upscaled at the origin
        Case(width: 3, height: 2, transform: rotated(side: 3, cx: 1.5, cy: 1, degrees: 5, size: 16), size: 16),
        Case(width: 1, height: 1, transform: rotated(side: 2, cx: 0.5, cy: 0.5, degrees: 0, size: 8), size: 8),
        Case(width: 97, height: 1, transform: rotated(side: 97, cx: 48, cy: 0.5, degrees: 0, size: 32), size: 32),
        Case(width: 50, height: 40, transform: AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 2, ty: 3), size: 32),  // 1:1, on pixel centres
        Case(width: 50, height: 40, transform: AffineMap(a: -0.7, b: 0.2, c: 0.1, d: 1.3, tx: 60, ty: -4), size: 40),
        Case(width: 50, height: 40, transform: AffineMap(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), size: 16),
        Case(width: 50, height: 40, transform: AffineMap(a: 1e30, b: 0, c: 0, d: 1e30, tx: 0, ty: 0), size: 16),
    ]

    @Test(arguments: cases, [false, true])
    func matchesTheSwiftLoopBitForBit(_ sample: Case, _ mirrored: Bool) {
        var random = SplitMix64(seed: UInt64(sample.width * 1000 + sample.height))
        let pixels = (0..<(sample.width * sample.height * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let image = RGBImage(width: sample.width, height: sample.height, pixels: pixels)
        func run(reference: Bool) -> [UInt32] {
            var tensor = [Float](repeating: -7, count: sample.size * sample.size * 3)
            tensor.withUnsafeMutableBufferPointer { buffer in
                TensorSampler.sample(image, transform: sample.transform, size: sample.size, valueScale: 2 / 255, valueOffset: -1,
                                     flipHorizontal: mirrored, referenceLoop: reference, into: buffer)
            }
            return tensor.map(\.bitPattern)
        }
        let fast = run(reference: false), reference = run(reference: true)
        let differing = zip(fast, reference).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(fast.count) floats differ")
        #expect(!reference.contains(Float(-7).bitPattern), "every float written")
    }
}
