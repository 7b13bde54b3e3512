import Foundation
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// A command-line INPUT that cannot be used, found before anything starts.
public struct RunInputError: Error, CustomStringConvertible {
    public let argument: String
    public let reason: String
    public var description: String { "cannot read input \(argument): \(reason)" }
}

extension RunInput {
    /// The input a command-line INPUT names, by what it is (never by its name):
    ///
    /// - `-`: a tar (or compressed tar) stream on standard input, named `stdin`;
    /// - a folder: its files, recursively (``folder(path:name:maxBytes:)``);
    /// - a regular file starting with a JPEG or PNG signature: that image;
    ///   one starting as a video container (MP4, MOV, MKV, WebM): its frames
    ///   (``videoFile(path:name:)``);
    ///   any other regular file: an archive;
    /// - a FIFO or character device (`<(tar cf - dir)`, `/dev/stdin` on a pipe): a stream.
    ///
    /// The manifest's `archive` column (and the output folder under `images/`)
    /// names an input by its last path component, as for archives: `photos`
    /// for `~/photos/`, `one.jpg`; run.json records the path as given.
    /// Throws, with the OS reason, when the input cannot be opened, so a run
    /// reports it before it creates anything.
    public static func fromArgument(_ argument: String, maxEntryBytes: Int = 512 << 20) throws(RunInputError) -> RunInput {
        if argument == "-" {
            return .archiveStream(fileDescriptor: STDIN_FILENO, name: "stdin", path: "-", maxEntryBytes: maxEntryBytes)
        }
        func failure(_ code: Int32) -> RunInputError {
            RunInputError(argument: argument, reason: String(cString: strerror(code)))
        }
        var status = stat()
        guard stat(argument, &status) == 0 else { throw failure(errno) }
        let name = URL(fileURLWithPath: argument).standardizedFileURL.lastPathComponent
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            guard let handle = opendir(argument) else { throw failure(errno) }
            closedir(handle)
            return .folder(path: argument, name: name, maxBytes: maxEntryBytes)
        case S_IFREG:
            let fd = openForReading(argument)
            guard fd >= 0 else { throw failure(errno) }
            defer { close(fd) }
            guard let signature = FileSignature.read(fd) else { throw failure(errno) }
            switch ContentKind(sniffing: signature) {
            case .image: return .imageFile(path: argument, name: name, maxBytes: maxEntryBytes)
            case .video: return .videoFile(path: argument, name: name)
            case .other: return .archive(path: argument, maxEntryBytes: maxEntryBytes)
            }
        case S_IFIFO, S_IFCHR:
            // Opening a FIFO waits for a writer, and a stream is read once: check access only.
            guard access(argument, R_OK) == 0 else { throw failure(errno) }
            return .archive(path: argument, maxEntryBytes: maxEntryBytes)
        default:
            throw RunInputError(argument: argument, reason: "not a file, folder or stream")
        }
    }
}

extension RunInput {
    /// A file named as an image or a video (`facepipe detect FILES…`): its
    /// frames when it starts as a video container (``videoFile(path:name:)``),
    /// the image when it starts as a JPEG or PNG or is empty
    /// (``imageFile(path:name:maxBytes:)``, whose source reports a file that
    /// cannot be decoded as its entry's error). Anything else is one entry's
    /// error saying what the file is, without reading further or quoting its
    /// bytes: not a regular file (a FIFO, `/dev/zero`, a folder), or a
    /// regular file that is neither (`/proc/self/environ`, a text, a GIF).
    /// Opened without waiting (a FIFO's open would wait for a writer); a file
    /// that cannot be opened is left to the image source, which reports why.
    public static func imageOrVideoFile(path: String) -> RunInput {
        let fd = openForReading(path, waiting: false)
        guard fd >= 0 else { return .imageFile(path: path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .imageFile(path: path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return refusedFile(path: path, reason: "not a regular file but \(FileSignature.kind(of: status)): give an image or video file")
        }
        guard let signature = FileSignature.read(fd) else { return .imageFile(path: path) }
        switch ContentKind(sniffing: signature) {
        case .video: return .videoFile(path: path)
        case .image: return .imageFile(path: path)
        case .other where signature.isEmpty: return .imageFile(path: path)
        case .other: break
        }
        let like = ImageLikeFormat(sniffing: signature).map { " (it looks like \($0.name), which facepipe does not decode)" } ?? ""
        return refusedFile(path: path, reason: "not a JPEG or PNG image nor a video (MP4, MOV, MKV, WebM), by its first bytes\(like)")
    }

    /// An input of one entry that is an error: `reason`, for the file `path`.
    private static func refusedFile(path: String, reason: String) -> RunInput {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return RunInput(name: path, path: path, byteSize: nil, isOneFile: true) { _ in
            InMemoryEntrySource(items: [.unreadable(index: 0, name: name, rawName: Array(name.utf8), reason: reason)])
        }
    }
}

/// `open(2)` read-only; outside `RunInput`, whose `open` would shadow it.
/// `waiting: false` adds `O_NONBLOCK`: a FIFO opens at once instead of waiting for a writer.
private func openForReading(_ path: String, waiting: Bool = true) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | (waiting ? 0 : O_NONBLOCK))
}
