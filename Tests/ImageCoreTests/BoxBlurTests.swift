import ImageCore
import Testing

@Suite struct BoxBlurTests {
    /// The box blur's definition, one value at a time: `passes` horizontal
    /// then vertical boxes of `2·radius + 1` values, edges repeated, each
    /// sum rounded back to a byte by integer division.
    static func reference(_ image: RGBImage, radius: Int, passes: Int) -> RGBImage {
        let taps = 2 * radius + 1, width = image.width, height = image.height
        var values = image.pixels.map(Int.init)
        func pass(along count: Int, lines: Int, step: Int, lineStep: Int) {
            var out = values
            for line in 0..<lines {
                for channel in 0..<3 {
                    for i in 0..<count {
                        var sum = 0
                        for j in (i - radius)...(i + radius) {
                            sum += values[line * lineStep + channel + min(max(j, 0), count - 1) * step]
                        }
                        out[line * lineStep + channel + i * step] = (sum + taps / 2) / taps
                    }
                }
            }
            values = out
        }
        for _ in 0..<passes {
            pass(along: width, lines: height, step: 3, lineStep: width * 3)
            pass(along: height, lines: width, step: width * 3, lineStep: 3)
        }
        return RGBImage(width: width, height: height, pixels: values.map { UInt8($0) })
    }

    /// Sizes with the box wider than the picture in either direction, one
    /// pixel wide or tall, and noise, flat white and black-and-white edges
    /// (sums at the top of their range, where a rounded quotient would slip).
    @Test(arguments: [(1, 1, 1, 1), (7, 5, 1, 3), (5, 9, 4, 2), (33, 17, 3, 3), (64, 48, 6, 3), (19, 1, 2, 3), (1, 23, 5, 3), (40, 30, 30, 1)])
    func matchesTheDefinition(_ size: (width: Int, height: Int, radius: Int, passes: Int)) {
        let noise = TestImages.noise(width: size.width, height: size.height)
        let white = RGBImage(width: size.width, height: size.height, fill: (255, 255, 255))
        var stripes = noise
        for i in stride(from: 0, to: stripes.pixels.count, by: 1) { stripes.pixels[i] = (i / 3 / 2) % 2 == 0 ? 255 : 0 }
        for image in [noise, white, stripes] {
            let fast = image.boxBlurred(radius: size.radius, passes: size.passes)
            let expected = Self.reference(image, radius: size.radius, passes: size.passes)
            let differing = zip(fast.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(fast.width == size.width && fast.height == size.height && differing == 0,
                    "\(size.width)×\(size.height), radius \(size.radius), \(size.passes) passes: \(differing) bytes differ")
        }
    }

    /// The rounded quotient by multiply and shift against integer division,
    /// for every sum a box of these widths can reach (up to the widest box).
    @Test(arguments: [1, 3, 5, 7, 41, 255, 257, 1023, 4097, 32769, BoxAverage.largestTaps])
    func averageIsTheRoundedQuotient(_ taps: Int) {
        let box = BoxAverage(taps: taps)
        var wrong = 0
        for sum in 0...(255 * taps) where Int(box.average(Int32(sum))) != (sum + taps / 2) / taps { wrong += 1 }
        #expect(wrong == 0)
    }

    @Test func radiusZeroChangesNothing() {
        let image = TestImages.noise(width: 9, height: 7)
        #expect(image.boxBlurred(radius: 0, passes: 3) == image)
    }
}
