import ArchiveIO
import Foundation
import Testing

/// `SlashPath` splits a path as Foundation's `NSString` does wherever
/// Foundation does not trap, and where it traps (a lone non-ASCII
/// character) gives the same kind of answer instead.
@Suite struct SlashPathTests {
    static let foundationSafe = [
        "a/b/c", "/a", "/", "", "a/b/", "a//b", "//a", "a/b//", "crops/in.tar/x.png/0.png",
        "images/in.tar/sample/faces/takeo.png.png", "a/é", "é/b", "/é", "ab", "a/\u{FFFD}x",
    ]

    @Test(arguments: foundationSafe)
    func splitsAsFoundationDoes(_ path: String) {
        #expect(SlashPath.parent(of: path) == (path as NSString).deletingLastPathComponent, "parent of \(path)")
        #expect(SlashPath.lastComponent(of: path) == (path as NSString).lastPathComponent, "last name of \(path)")
    }

    /// Foundation's own code traps on these on Linux: `deletingLastPathComponent`
    /// on a lone non-ASCII character (U+FFFD is what an invalid UTF-8 byte
    /// in a manifest reads as), `lastPathComponent` on any one-character path.
    @Test(arguments: ["\u{FFFD}", "é", "😀", "a"])
    func aOneCharacterPathIsANameWithoutAFolder(_ path: String) {
        #expect(SlashPath.parent(of: path) == "")
        #expect(SlashPath.lastComponent(of: path) == path)
        #expect(SlashPath.parent(of: "crops/" + path) == "crops")
        #expect(SlashPath.lastComponent(of: path + "/") == path)
    }
}
