import ArchiveIO
import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Inference

/// `facepipe-probes yunet-grids ARCHIVE`: calibrates YuNet-s's static int8
/// grids (`YuNetGrids`, `ActivationGrids`). Runs the search `faces` runs
/// (the levels and columns of YuNet-s's `SearchPlan` at the 20-px floor,
/// in `.int8` arithmetic, whose tensors between layers are floats) on every
/// picture of the archive, records the largest magnitude of every tensor
/// the grids may name (the first layer's output, each 1×1 and depthwise
/// layer's, the neck's sums; not the heads', which stay floats, nor pools
/// and upsamplings, which keep their input's grid), and prints
/// `Sources/FaceAnalysis/YuNetGrids.swift`'s table. scripts/calibrate-yunet.sh runs it.
struct YuNetCalibration: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yunet-grids",
        abstract: "Calibrates YuNet-s's static int8 grids on an archive; prints the Swift table."
    )

    @Argument(help: "A tar archive of images.")
    var archive: String

    func run() throws {
        let models = try FaceModels.load([.yunet], from: URL(fileURLWithPath: "models"))
        let family = DetectorFamily.yunetS
        let detector = try YuNetDetector(model: try models.model(.yunet), minimumScore: 0.2, firstConvolution: .int8, pointwise: .int8Every)
        var calibration = YuNetGrids.Calibration()
        detector.observer = { name, values in calibration.observe(name, values) }
        let reader = try TarReader(path: archive)
        var pictures = 0
        while let item = try reader.next() {
            guard case .file(let entry) = item, let decoded = try? ImageDecoder.decode(entry.data) else { continue }
            let image = decoded.uprightImage()
            let plan = SearchPlan(family.pyramid!, width: image.width, height: image.height, minFacePixels: 20)
            try plan.forEachLevel(of: image) { (index, levelImage) throws(FaceAnalysisError) in
                for tile in plan.tiles where tile.level == index {
                    _ = try detector.detect(levelImage, x: tile.x, y: tile.y, width: tile.width, height: tile.height)
                }
            }
            pictures += 1
        }
        guard pictures > 0 else { throw ProbeFailure("no decodable images in \(archive)") }
        let archiveName = URL(fileURLWithPath: archive).lastPathComponent
        print("    // Calibrated on \(pictures) pictures of \(archiveName): tensor, largest magnitude, signed.")
        print("    static let largest: [(tensor: String, largest: Float, signed: Bool)] = [")
        for row in calibration.table {
            print("        (\"\(row.tensor)\", \(row.largest), \(row.signed)),")
        }
        print("    ]")
    }
}
