import Foundation
import Testing

/// A minimum face size that is not a finite number (`infpx`, `1e39px`,
/// which overflows a `Float`, `-infpx`, `nanpx`), in each of its command-line
/// forms, is a usage error (exit 2) naming the option, like an out-of-range
/// fraction, and nothing is written. So is one not written in decimal
/// (`0x10px`, which `Float("0x10")` reads as 16; `0x1p-4`, a hexadecimal
/// 0.0625).
@Suite(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"))
struct MinFaceSizeUsageTests {
    enum Form: String, CaseIterable, Sendable { case runOption, runSet, detectOption }

    static let values = ["infpx", "1e39px", "-infpx", "nanpx", "inf", "nan", "1.5", "0x10px", "0x1p-4", " 0x10px"]

    static func arguments(_ form: Form, _ value: String, input: String, out: String) -> [String] {
        switch form {
        case .runOption: ["run", "faces", input, "--out", out, "--min-face-size=\(value)"]
        case .runSet: ["run", "faces", input, "--out", out, "--set", "detect-faces.min-face-size=\(value)"]
        case .detectOption: ["detect", "--min-face-size=\(value)", input]
        }
    }

    @Test(arguments: Form.allCases, values)
    func aMinFaceSizeThatIsNotAFiniteNumberIsAUsageError(_ form: Form, _ value: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out")
        let result = try FacepipeProcess.run(Self.arguments(form, value, input: input.path, out: out.path), in: folder)
        let label = "\(form) \(value)"
        #expect(result.status == 2, "\(label): exit \(result.status), \(result.stderr.prefix(300))")
        #expect(result.stderr.lowercased().contains("min-face-size") || result.stderr.contains("minFaceSize"),
                "\(label): the message names the option: \(result.stderr.prefix(300))")
        #expect(!result.stderr.contains("Swift runtime failure"), "\(label)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(label): nothing written")
    }

    /// A whole number over 1 is taken as a fraction, so `40` is out of range:
    /// the message names the option and the value and suggests `40px`.
    @Test(arguments: Form.allCases)
    func aBareNumberSuggestsPixels(_ form: Form) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out")
        let result = try FacepipeProcess.run(Self.arguments(form, "40", input: input.path, out: out.path), in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("option min-face-size 40 is neither a fraction of the image width in 0…1 nor pixels like 20px; did you mean 40px?"),
                "\(form): \(result.stderr.prefix(300))")
    }
}
