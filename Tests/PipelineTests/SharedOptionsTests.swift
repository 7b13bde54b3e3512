import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Testing

/// The options `run` and `detect` share (`DetectorOptions`, `WorkerOptions`,
/// `FrameOptions`), through the built binary: one declaration, so one help
/// text naming every detector mode, and `-j4` read as `-j 4` by both.
@Suite(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"))
struct SharedOptionsTests {
    /// `facepipe VERB --help` as the terminal shows it.
    static func help(_ verb: String) throws -> String {
        String(decoding: try VideoProbe.output(of: FacepipeProcess.binary.path, [verb, "--help"]), as: UTF8.self)
    }

    /// The `--mode` paragraph of a help text: from `--mode` to the next option.
    static func modeHelp(_ help: String) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--mode <") }) else { return "" }
        let end = lines[(start + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("-") }) ?? lines.endIndex
        return lines[start..<end].joined(separator: " ")
    }

    @Test(arguments: ["run", "detect"])
    func modeHelpNamesEveryDetectorMode(_ verb: String) throws {
        let paragraph = Self.modeHelp(try Self.help(verb))
        #expect(!paragraph.isEmpty, "\(verb) --help has a --mode option")
        for mode in DetectorMode.allCases {
            #expect(paragraph.contains(mode.rawValue), "\(verb) --mode's help names \(mode.rawValue): \(paragraph)")
        }
    }

    /// `-j4` is `-j 4`: the run records 4 workers, `detect` prints its line.
    @Test(arguments: ["run", "detect"])
    func aJoinedWorkerCountIsRead(_ verb: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        let photo = photos.appendingPathComponent("grey.png")
        try Data(png).write(to: photo)
        let out = folder.appendingPathComponent("out")
        let arguments = verb == "run" ? ["run", "upright-png", photos.path, "--out", out.path, "--quiet", "-j4"]
                                      : ["detect", "-j4", photo.path]
        let result = try FacepipeProcess.run(arguments, in: folder)
        #expect(result.status == 0, "\(arguments): \(result.stderr.prefix(400))")
        if verb == "run" {
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
            let configuration = record?["configuration"] as? [String: Any]
            #expect(configuration?["workers"] as? Int == 4)
        }
    }
}
