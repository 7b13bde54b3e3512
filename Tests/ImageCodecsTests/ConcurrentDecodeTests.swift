import ImageCodecs
import ImageCore
import Testing

@Suite struct ConcurrentDecodeTests {
    /// One decoder per task (as pipeline workers do): same results as a serial decode.
    @Test func decodersInParallelTasksAgree() async throws {
        let jpeg = try TestImages.jpeg(TestImages.gradient(width: 300, height: 200), progressive: true)
        let png = try PNGEncoder.encode(TestImages.gradient(width: 300, height: 200))
        let expected = [try ImageDecoder.decode(jpeg).image, try ImageDecoder.decode(png).image]
        let results = try await withThrowingTaskGroup(of: [RGBImage].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let decoder = ImageDecoder()
                    var images: [RGBImage] = []
                    for _ in 0..<10 {
                        images.append(try decoder.decode(jpeg).image)
                        images.append(try decoder.decode(png).image)
                        _ = try? decoder.decode(Array(jpeg.prefix(jpeg.count / 3)))  // errors in between must not disturb it
                    }
                    return images
                }
            }
            var all: [[RGBImage]] = []
            for try await images in group { all.append(images) }
            return all
        }
        for images in results {
            for (index, image) in images.enumerated() { #expect(image == expected[index % 2]) }
        }
    }
}
