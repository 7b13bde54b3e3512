import Foundation
import _CTestSpawn
#if canImport(Glibc)
import Glibc
#endif

/// A program a test runs as a child process: ffmpeg and ffprobe, chromium,
/// the export readers' Python, the built `facepipe`.
///
/// Not Foundation's `Process`: on Linux its `run()` copies a whole
/// `d_name` out of each `/proc/self/fd` entry it reads and so reads past
/// glibc's directory buffer (swift-corelibs-foundation pull request 5472);
/// the suite, which holds 1 300–2 300 descriptors at its busiest, died of
/// signal 11 there about once in three runs. Here `posix_spawn` starts the
/// child with every descriptor above standard error closed
/// (`_CTestSpawn`), standard output and error go to files (no pipe to
/// drain, and the error text can be read while the child runs), and
/// standard input is /dev/null, a file of given bytes, or a pipe the test
/// writes to.
public final class ChildProcess: @unchecked Sendable {
    /// What the child reads on standard input.
    public enum Input: Sendable {
        /// /dev/null.
        case none
        /// These bytes, then end of file.
        case bytes([UInt8])
        /// A pipe: ``send(_:)``, then ``closeInput()``.
        case pipe
    }

    /// What the child's standard error goes to.
    public enum ErrorOutput: Sendable {
        /// A file read by ``standardError``.
        case captured
        /// This descriptor (the caller keeps it; the child gets a copy).
        case descriptor(Int32)
    }

    /// Why a child did not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    private let folder: URL
    private var inputEnd: Int32
    private var status: Int32?

    /// Starts `executable` with `arguments` in `directory` (default: this
    /// process's), its environment this process's with `environment` set over it.
    public init(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                environment: [String: String] = [:], input: Input = .none, standardError: ErrorOutput = .captured) throws {
        _ = Self.ignoreBrokenPipes
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        self.folder = folder
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        func open(_ name: String, _ flags: Int32) throws -> Int32 {
            let descriptor = Glibc.open(folder.appendingPathComponent(name).path, flags | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Failure(description: "\(name): \(String(cString: strerror(errno)))") }
            opened.append(descriptor)
            return descriptor
        }
        let inputDescriptor: Int32
        var inputEnd: Int32 = -1
        switch input {
        case .none:
            inputDescriptor = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            opened.append(inputDescriptor)
        case .bytes(let bytes):
            try Data(bytes).write(to: folder.appendingPathComponent("stdin"))
            inputDescriptor = try open("stdin", O_RDONLY)
        case .pipe:
            var ends: [Int32] = [-1, -1]
            guard facepipe_test_pipe(&ends) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
            inputDescriptor = ends[0]
            opened.append(ends[0])
            inputEnd = ends[1]
        }
        let outputDescriptor = try open("stdout", O_WRONLY | O_CREAT | O_TRUNC)
        let errorDescriptor: Int32
        switch standardError {
        case .captured: errorDescriptor = try open("stderr", O_WRONLY | O_CREAT | O_TRUNC)
        case .descriptor(let descriptor): errorDescriptor = descriptor
        }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failed = facepipe_test_spawn(&pid, executable, argv, envp, directory?.path,
                                         inputDescriptor, outputDescriptor, errorDescriptor)
        self.inputEnd = inputEnd
        guard failed == 0 else {
            if inputEnd >= 0 { close(inputEnd) }
            try? FileManager.default.removeItem(at: folder)
            throw Failure(description: "\(executable): \(String(cString: strerror(failed)))")
        }
        processIdentifier = pid
    }

    deinit {
        if status == nil {
            kill(processIdentifier, SIGKILL)
            _ = wait()
        }
        if inputEnd >= 0 { close(inputEnd) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A write to a pipe whose reader has gone fails with EPIPE instead of killing the test process.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// Writes `bytes` to the child's standard input (``Input/pipe``).
    public func send(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(inputEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "standard input: \(String(cString: strerror(errno)))") }
            written += count
        }
    }

    /// Ends the child's standard input (``Input/pipe``).
    public func closeInput() {
        if inputEnd >= 0 { close(inputEnd) }
        inputEnd = -1
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        kill(processIdentifier, signal)
    }

    /// Everything the child wrote to standard output so far.
    public var standardOutput: [UInt8] {
        (try? [UInt8](Data(contentsOf: folder.appendingPathComponent("stdout")))) ?? []
    }

    /// Everything the child wrote to standard error so far (``ErrorOutput/captured``).
    public var standardError: String {
        String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("stderr"))) ?? Data(), as: UTF8.self)
    }

    /// Waits for the child to end: its exit status, or 128 + the signal
    /// that ended it. With `killingAfter`, a child still running after so
    /// many seconds is killed (SIGKILL: 137).
    @discardableResult
    public func wait(killingAfter seconds: Double? = nil) -> Int32 {
        if let status { return status }
        closeInput()
        var raw: Int32 = 0
        if let seconds {
            let deadline = Date().addingTimeInterval(seconds)
            while waitpid(processIdentifier, &raw, WNOHANG) == 0 {
                if Date() > deadline { kill(processIdentifier, SIGKILL) }
                usleep(10_000)
            }
        } else {
            while waitpid(processIdentifier, &raw, 0) < 0, errno == EINTR {}
        }
        let ended = Self.shellStatus(raw)
        status = ended
        return ended
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
        status = Self.shellStatus(raw)
        return false
    }

    /// A `waitpid` status as a shell's `$?`: the exit status, or 128 + the
    /// signal (WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import).
    private static func shellStatus(_ raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }

    /// Runs `executable` to its end: its status (as ``wait(killingAfter:)``),
    /// standard output and standard error.
    public static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:], input: [UInt8]? = nil,
                           killingAfter seconds: Double? = nil) throws -> (status: Int32, output: [UInt8], errors: String) {
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment,
                                     input: input.map { .bytes($0) } ?? .none)
        let status = child.wait(killingAfter: seconds)
        return (status, child.standardOutput, child.standardError)
    }
}
