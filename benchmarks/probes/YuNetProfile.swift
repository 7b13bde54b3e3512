import ArchiveIO
import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Inference
import _TestSupport

/// `facepipe-probes yunet-profile ARCHIVE`: `DetectorMode.yunet` as
/// `facepipe detect --mode yunet` runs it (20 px floor) on every image of an
/// archive, one thread: the detector's CPU per megapixel of picture, and how
/// many tile pixels (padded to YuNet's multiples of 32) its search plan runs
/// per picture pixel. `FACEPIPE_KERNELS=8` plans the 8-lane kernels.
struct YuNetProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yunet-profile",
        abstract: "YuNet-s detector CPU per megapixel over an archive (20 px floor, one thread)."
    )

    @Argument(help: "A tar archive of images.")
    var archive: String

    @Option(help: "Stop after this many images.")
    var limit = Int.max

    func run() throws {
        let kernels: KernelSet = ProcessInfo.processInfo.environment["FACEPIPE_KERNELS"] == "8" ? .avx2 : .best
        let models = try FaceModels.load([.yunet], from: URL(fileURLWithPath: "models"), kernels: kernels)
        let analyzer = FaceAnalyzer(models: models)
        let options = FaceDetectionOptions(mode: .yunet, minFaceSize: .pixels(20), minScore: 0.5)
        let reader = try TarReader(path: archive)
        var images = 0, pixels = 0, tilePixels = 0, faces = 0
        var total: UInt64 = 0
        while images < limit, let item = try reader.next() {
            guard case .file(let entry) = item, let decoded = try? ImageDecoder.decode(entry.data) else { continue }
            let image = decoded.uprightImage()
            let start = threadCPUNanoseconds()
            faces += try analyzer.detect(in: image, options: options).count
            total += threadCPUNanoseconds() - start
            images += 1
            pixels += image.width * image.height
            let a = 32
            for tile in SearchPlan(DetectorFamily.yunetS.pyramid!, width: image.width, height: image.height, minFacePixels: 20).tiles {
                tilePixels += (tile.width + a - 1) / a * a * ((tile.height + a - 1) / a * a)
            }
        }
        guard images > 0 else { throw ProbeFailure("no decodable images in \(archive)") }
        let megapixels = Double(pixels) / 1e6
        print("YUNET kernels=\(kernels) images=\(images) megapixels=\(String(format: "%.1f", megapixels)) faces=\(faces)")
        print(String(format: "YUNET detector CPU %.2f s, %.1f ms per MP, %.1f ms per image; tile px per picture px %.3f",
                     Double(total) / 1e9, Double(total) / 1e6 / megapixels, Double(total) / 1e6 / Double(images),
                     Double(tilePixels) / Double(pixels)))
    }
}
