import Foundation
import Testing
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The tests' one way to start a program (`ChildProcess`): what the
/// suite relies on when it runs ffmpeg, chromium or the binary beside
/// hundreds of open run folders.
@Suite struct ChildProcessTests {
    /// With 1 500 descriptors open here (the suite holds up to 2 300), a
    /// child starts every time and inherits none of them: only its standard
    /// input, output and error (and the descriptor `ls` opens to list them).
    @Test func aChildInheritsNoDescriptorWhileManyAreOpen() throws {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        for _ in 0..<1_500 {
            let descriptor = open("/dev/null", O_RDONLY)    // without O_CLOEXEC: inherited unless closed
            try #require(descriptor >= 0)
            opened.append(descriptor)
        }
        for _ in 0..<20 {
            let result = try ChildProcess.run("/bin/ls", ["/proc/self/fd"])
            #expect(result.status == 0, "\(result.errors)")
            let listed = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.sorted()
            #expect(listed == [0, 1, 2, 3], "\(listed.count) descriptors in the child")
        }
    }

    /// Status as a shell's `$?` (a child starts with no signal blocked and
    /// none ignored, though this process ignores SIGPIPE and the test
    /// runner's threads block signals); input bytes, output and error come back whole.
    @Test func statusInputAndOutputsComeBackAsAShellShowsThem() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let copied = try ChildProcess.run("/bin/sh", ["-c", "cat; echo complaint >&2; exit 7"], input: bytes)
        #expect(copied.status == 7)
        #expect(copied.output == bytes, "stdout is what stdin was")
        #expect(copied.errors == "complaint\n")
        #expect(try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"]).status == 143)
        #expect(try ChildProcess.run("/bin/sh", ["-c", "kill -PIPE $$"]).status == 141)
        let folder = FileManager.default.temporaryDirectory
        let here = try ChildProcess.run("/bin/pwd", [], in: folder, environment: ["FACEPIPE_CHILD_TEST": "x"])
        #expect(String(decoding: here.output, as: UTF8.self) == folder.resolvingSymlinksInPath().path + "\n")
        let environment = try ChildProcess.run("/bin/sh", ["-c", "printf %s \"$FACEPIPE_CHILD_TEST\""], environment: ["FACEPIPE_CHILD_TEST": "set"])
        #expect(environment.output == Array("set".utf8))
    }

    /// A child still running past `killingAfter` is killed (137), and a
    /// pipe on standard input takes bytes while it runs.
    @Test func aHungChildIsKilledAndAPipeFeedsARunningChild() throws {
        #expect(try ChildProcess.run("/bin/sleep", ["30"], killingAfter: 0.2).status == 137)
        let child = try ChildProcess("/bin/cat", [], input: .pipe)
        try child.send(Array("first ".utf8))
        try child.send(Array("second".utf8))
        #expect(child.isRunning)
        child.closeInput()
        #expect(child.wait() == 0)
        #expect(child.standardOutput == Array("first second".utf8))
    }
}
