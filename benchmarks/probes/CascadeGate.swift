import ArchiveIO
import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import _TestSupport

/// `facepipe-probes cascade-gate ARCHIVE`: could the next coarser level's
/// low scores say where the finest level must look? For every kept face
/// only the finest level found, the best raw level-2 score near it; and
/// for score thresholds, the share of the finest level a gate would keep.
struct CascadeGate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cascade-gate",
        abstract: "Level-2 low scores near faces only the finest level finds, and the share of the finest level a gate at each score would keep.")

    @Argument(help: "A tar archive of images.") var archive: String
    @Option(help: "Stop after this many images.") var limit = Int.max
    @Option(help: "The lowest level-2 score collected.") var floor: Float = 0.02
    @Option(help: "Gate margin in level-1 pixels around a level-2 hit.") var margin = 48
    @Option(help: "Which coarser level gates (1 = the next).") var step = 1
    @Flag(help: "Gate on the stride-8 head only (the coarser level's smallest faces).") var fine = false

    func run() throws {
        let analyzer = try FaceProbeInputs.analyzer()
        let trace = DetectionTrace()
        trace.lowScoreFloor = floor
        analyzer.searchObserver = trace
        let options = FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20), minScore: 0.5, canvasArithmetic: .int8)
        let reader = try TarReader(path: archive)
        let thresholds: [Float] = [0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1]
        var gateScores: [(Float, Float, String)] = []
        var covered = [Double](repeating: 0, count: thresholds.count), total = 0.0
        var images = 0
        while images < limit, let item = try reader.next() {
            guard case .file(let entry) = item, let decoded = try? ImageDecoder.decode(entry.data) else { continue }
            let image = decoded.uprightImage()
            let faces = try analyzer.detect(in: image, options: options)
            images += 1
            guard let plan = trace.plan, plan.tiles.contains(where: { $0.level == 1 }) else { continue }
            // The gating level's detections, once per image.
            let gateHits = trace.lowScores.filter { $0.level == 1 + step && (!fine || $0.stride == 8) }.map(\.detection)
            let kept = faces.filter { $0.score >= 0.7 }
            for face in kept {
                let levels = Set(trace.canvasRuns.filter { run in run.detections.contains { $0.box.intersectionOverUnion(face.box) > 0.3 } }.map(\.canvas.level))
                guard levels == [1] else { continue }
                let b = face.box
                let near = gateHits.filter { d in
                    let cx = d.box.centerX, cy = d.box.centerY
                    return cx >= b.x - b.width / 2 && cx <= b.x + 1.5 * b.width && cy >= b.y - b.height / 2 && cy <= b.y + 1.5 * b.height
                }
                gateScores.append((near.map(\.score).max() ?? 0, b.width, entry.name))
            }
            // Coverage of level 1 (in its own pixels) by 16-px blocks near a gate hit.
            let l1 = plan.levels[1], l0 = plan.levels[0]
            let sx = Float(l1.width) / Float(l0.width), sy = Float(l1.height) / Float(l0.height)
            let bw = (l1.width + 15) / 16, bh = (l1.height + 15) / 16
            total += Double(l1.width * l1.height)
            for (ti, t) in thresholds.enumerated() {
                var marked = [Bool](repeating: false, count: bw * bh)
                for d in gateHits where d.score >= t {
                    let cx = d.box.centerX * sx, cy = d.box.centerY * sy
                    let x0 = max(0, Int(cx) - margin) / 16, x1 = min(l1.width - 1, Int(cx) + margin) / 16
                    let y0 = max(0, Int(cy) - margin) / 16, y1 = min(l1.height - 1, Int(cy) + margin) / 16
                    guard x0 <= x1, y0 <= y1 else { continue }
                    for y in y0...y1 { for x in x0...x1 { marked[y * bw + x] = true } }
                }
                covered[ti] += Double(marked.filter { $0 }.count * 256)
            }
        }
        let sorted = gateScores.sorted { $0.0 < $1.0 }
        print("GATE \(images) images, \(sorted.count) kept faces only level 1 found")
        for (s, w, path) in sorted.prefix(25) { print(String(format: "GATE low: %.5f  width %.0f  %@", s, w, path)) }
        for (ti, t) in thresholds.enumerated() {
            print(String(format: "GATE t=%.4f: %d/%d faces pass, level-1 area kept %.3f", t, sorted.filter { $0.0 >= t }.count, sorted.count, covered[ti] / max(total, 1)))
        }
    }
}
