import ArchiveIO
import Foundation
import _TestSupport
import Testing

@Suite struct SafeOutputPathTests {
    struct NameCase: CustomTestStringConvertible, Sendable {
        let raw: [UInt8]
        let expected: String
        let why: String
        init(_ raw: [UInt8], _ expected: String, _ why: String) {
            self.raw = raw
            self.expected = expected
            self.why = why
        }
        init(_ raw: String, _ expected: String, _ why: String) {
            self.init(Array(raw.utf8), expected, why)
        }
        var testDescription: String { why }
    }

    /// Expected values are part of the contract: the same raw name must give
    /// the same path in every release (hash = low 48 bits of FNV-1a-64 of the raw bytes).
    static let cases: [NameCase] = [
        NameCase("photos/a.jpg", "photos/a.jpg", "a clean name is kept"),
        NameCase("b.jpg", "b.jpg", "a clean name without directory"),
        NameCase("café.jpg", "café.jpg", "valid UTF-8 is kept"),
        NameCase("100%.jpg", "100%.jpg", "percent signs are kept"),
        NameCase("a.tar.gz", "a.tar.gz", "several dots"),
        NameCase(".hidden", ".hidden", "leading dot is not an extension"),
        NameCase("x~.jpg", "x~.jpg", "a tilde without hex digits is no marker"),
        NameCase("x~g.jpg", "x~g.jpg", "a tilde with a non-hex letter is no marker"),
        NameCase("../escape.jpg", "escape~cb6bee9982e0.jpg", "parent step dropped"),
        NameCase("/abs.jpg", "abs~7858cf6583b3.jpg", "absolute made relative"),
        NameCase("a/../../b.jpg", "a/b~f12f967c0bde.jpg", "parent steps dropped, not resolved, and told apart from a/b.jpg"),
        NameCase("./a//b", "a/b~9b8e574f4527", "dot and empty components dropped"),
        NameCase("a\\b.jpg", "a/b~ddddc37b45bf.jpg", "backslash separates"),
        NameCase(Array("a".utf8) + [0] + Array("b.jpg".utf8), "a%00b~06853c5db89b.jpg", "NUL escaped"),
        NameCase([0x61, 0x0A, 0x62], "a%0Ab~b1190415e670", "newline escaped"),
        NameCase("", "unnamed~9ce484222325", "empty name"),
        NameCase(".", "unnamed~a34c86018bb1", "dot only"),
        NameCase("..", "unnamed~1a07b4a03f2d", "dot-dot only"),
        NameCase("../..", "unnamed~a5f18805a682", "parents only"),
        NameCase("/", "unnamed~a24c860189fe", "root only"),
        NameCase("dir/", "dir~ff67578c3e01", "trailing slash"),
        NameCase([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67], "caf%E9~d804c14a2d71.jpg", "Latin-1 byte escaped"),
        NameCase("x~1.jpg", "x~1~98178f4a7567.jpg", "a name shaped like a disambiguated one gets a hash"),
        NameCase("x~abc.jpg", "x~abc~16b6766092ac.jpg", "a name shaped like a hashed one gets a hash"),
        NameCase("\u{202E}gpj.exe", "%E2%80%AEgpj~a7e66151f894.exe", "right-to-left override escaped"),
    ]

    @Test(arguments: cases)
    func mapsNamesByTheDocumentedRules(_ nameCase: NameCase) {
        #expect(SafeOutputPath.relativePath(forRawName: nameCase.raw) == nameCase.expected)
    }

    @Test func stableHashMatchesPublishedFNVVectors() {
        #expect(StableHash.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        #expect(StableHash.shortHex(Array("foobar".utf8)) == "4171f73967e8")
    }

    @Test func longComponentsAndPathsAreCappedAndStillDistinct() {
        let longComponent = Array(String(repeating: "é", count: 300).utf8) + Array(".jpeg".utf8)
        let path = SafeOutputPath.relativePath(forRawName: longComponent)
        #expect(path.utf8.count <= SafeOutputPath.maxComponentBytes)
        #expect(path.hasSuffix(".jpeg"))
        #expect(path.hasPrefix("éé"))
        let other = SafeOutputPath.relativePath(forRawName: longComponent.dropLast(5) + Array("x.jpeg".utf8))
        #expect(other != path)

        let deep = Array(repeating: Array(String(repeating: "d", count: 150).utf8), count: 20).joined(separator: [0x2F]) + Array("/leaf.png".utf8)
        let deepPath = SafeOutputPath.relativePath(forRawName: Array(deep))
        #expect(deepPath.utf8.count <= SafeOutputPath.maxPathBytes)
        #expect(deepPath.hasPrefix(String(repeating: "d", count: 150) + "/"))
        #expect(deepPath.split(separator: "/").last!.hasPrefix("leaf~"))
        #expect(deepPath.hasSuffix(".png"))
    }

    @Test func disambiguatedInsertsTheIndexBeforeTheExtension() {
        #expect(SafeOutputPath.disambiguated("a/b.jpg", index: 7) == "a/b~7.jpg")
        #expect(SafeOutputPath.disambiguated("noext", index: 12) == "noext~12")
        #expect(SafeOutputPath.disambiguated("d.x/.hidden", index: 0) == "d.x/.hidden~0")
        #expect(SafeOutputPath.disambiguated("a/b~f12f967c0bde.jpg", index: 3) == "a/b~f12f967c0bde~3.jpg")
    }

    @Test func outputNamesTellDuplicatesApartByIndex() {
        var names = OutputNames()
        #expect(names.claim(rawName: Array("a.jpg".utf8), index: 0) == "a.jpg")
        #expect(names.claim(rawName: Array("b.jpg".utf8), index: 1) == "b.jpg")
        #expect(names.claim(rawName: Array("a.jpg".utf8), index: 2) == "a~2.jpg")
        #expect(names.claim(rawName: Array("a.jpg".utf8), index: 5) == "a~5.jpg")
        #expect(names.claim(rawName: Array("a~2.jpg".utf8), index: 6) != "a~2.jpg")
    }

    @Test func outputNamesLeaveOutLeadingDotSlashComponents() {
        var names = OutputNames()
        #expect(names.claim(rawName: Array("./a/b.jpg".utf8), index: 1) == "a/b.jpg")
        #expect(names.claim(rawName: Array("././c.jpg".utf8), index: 2) == "c.jpg")
        #expect(names.claim(rawName: Array("a/b.jpg".utf8), index: 3) == "a/b~3.jpg")
        #expect(names.claim(rawName: Array("x/./d.jpg".utf8), index: 4) != "x/d.jpg", "only leading components")
        #expect(names.claim(rawName: Array("../e.jpg".utf8), index: 5) != "e.jpg")
    }

    /// Random byte names over an alphabet rich in separators, dots, escapes and
    /// broken UTF-8: every result obeys the invariants and no two names meet.
    @Test func randomNamesAlwaysGiveSafeDistinctPaths() throws {
        let alphabet: [UInt8] = [0x61, 0x62, 0x2E, 0x2E, 0x2F, 0x2F, 0x5C, 0x7E, 0x30, 0x31, 0x66, 0x00, 0x0A, 0x7F, 0xFF, 0xC3, 0xA9, 0xE2, 0x80, 0xAE, 0x20, 0x25, 0x6A, 0x70, 0x67]
        var generator = SplitMix64(seed: 42)
        var seen: [String: [UInt8]] = [:]
        for round in 0..<10_000 {
            let length = round % 50 == 0 ? Int.random(in: 200...2500, using: &generator) : Int.random(in: 0...24, using: &generator)
            let raw = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let path = SafeOutputPath.relativePath(forRawName: raw)
            try checkInvariants(path, raw: raw)
            #expect(SafeOutputPath.relativePath(forRawName: raw) == path, "stable")
            if let earlier = seen[path], earlier != raw {
                Issue.record("\(raw) and \(earlier) both map to \(path)")
            }
            seen[path] = raw
        }
        // Disambiguated variants never meet another name's path either.
        let paths = Set(seen.keys)
        for (index, path) in paths.sorted().prefix(2000).enumerated() {
            let variant = SafeOutputPath.disambiguated(path, index: index)
            #expect(!paths.contains(variant), "\(variant)")
            try checkInvariants(variant, raw: nil)
        }
    }

    /// Checks the guarantees of `relativePath`; one issue per broken path.
    private func checkInvariants(_ path: String, raw: [UInt8]?) throws {
        let bytes = Array(path.utf8)
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        // A disambiguated path (raw == nil) may exceed the caps by its "~index".
        let slack = raw == nil ? 24 : 0
        var broken: [String] = []
        if bytes.isEmpty { broken.append("empty") }
        if bytes.first == 0x2F { broken.append("absolute") }
        if bytes.count > SafeOutputPath.maxPathBytes + slack { broken.append("path too long (\(bytes.count))") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C }) { broken.append("control byte or backslash") }
        if components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) { broken.append("empty, . or .. component") }
        if components.contains(where: { $0.utf8.count > SafeOutputPath.maxComponentBytes + slack }) { broken.append("component too long") }
        if (try? SafeOutputPath.checkRelative(path)) == nil { broken.append("checkRelative refuses it") }
        if !broken.isEmpty {
            Issue.record("raw \(raw.map { "\($0)" } ?? "-") → \(path): \(broken.joined(separator: ", "))")
        }
    }

    // MARK: - Containment

    struct RejectedCase: CustomTestStringConvertible, Sendable {
        let relative: String
        let error: OutputPathError
        var testDescription: String { relative.debugDescription }
    }

    @Test(arguments: [
        RejectedCase(relative: "", error: .notRelative("")),
        RejectedCase(relative: "/etc/passwd", error: .notRelative("/etc/passwd")),
        RejectedCase(relative: "a/../../b", error: .unsafeComponent(path: "a/../../b", component: "..")),
        RejectedCase(relative: "./a", error: .unsafeComponent(path: "./a", component: ".")),
        RejectedCase(relative: "a//b", error: .unsafeComponent(path: "a//b", component: "")),
        RejectedCase(relative: "a/", error: .unsafeComponent(path: "a/", component: "")),
        RejectedCase(relative: "a\\..\\b", error: .unsafeComponent(path: "a\\..\\b", component: "a\\..\\b")),
        RejectedCase(relative: "a\0b", error: .unsafeComponent(path: "a\0b", component: "a\0b")),
    ])
    func checkRelativeRejectsPathsThatCouldLeaveTheRoot(_ rejected: RejectedCase) {
        #expect(throws: rejected.error) { try SafeOutputPath.checkRelative(rejected.relative) }
    }

    @Test func checkRelativeAcceptsPlainRelativePaths() throws {
        try SafeOutputPath.checkRelative("images/a.png")
        try SafeOutputPath.checkRelative("a")
    }
}
