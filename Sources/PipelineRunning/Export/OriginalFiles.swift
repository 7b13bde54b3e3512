#if canImport(Glibc)
import Foundation
import Glibc
import RunFolders
#endif

/// `--reference-originals`: the files the run read, as paths relative to
/// DEST (the folder of the annotation file), instead of clean upright
/// copies. Only an image that is a file of its own and upright as stored can
/// be pointed at; anything else is refused before DEST is created, naming
/// the image and why:
/// - an archive's entry (no image loader opens `photos.tar/a.jpg`),
/// - a video's frame,
/// - an image read from standard input or another stream,
/// - an image with an EXIF orientation other than 1 (its file's pixels are
///   turned; the annotations' boxes and sizes are upright),
/// - a file that is no longer there.
///
/// Each input's path is taken as run.json records it, relative paths from
/// the current folder (as the run was given them); each file's path is
/// resolved (links included) and written relative to DEST's resolved path,
/// so it opens from the annotation file's folder wherever both are.
/// The files are not read.
package struct OriginalFiles: Sendable {
    let run: FinishedRun
    /// DEST's resolved components.
    let base: [String]

    init(run: FinishedRun, destination: URL) {
        self.run = run
        base = Self.resolvedComponents(of: destination.path)
    }

    /// `image`'s file relative to DEST, or why it has none to point at.
    func relativePath(of image: ExportImage) throws(ExportError) -> String {
        let file = try Self.originalFile(of: image, in: run)
        guard let resolved = realpath(file, nil) else {
            throw .originalNotReferenceable(image: Self.name(of: image), reason: "\(file): \(OSReason(errno: errno))")
        }
        defer { free(resolved) }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .originalNotReferenceable(image: Self.name(of: image), reason: "\(file) is not a regular file")
        }
        return Self.relative(from: base, to: Self.components(of: String(cString: resolved)))
    }

    /// `<archive>/<entry>`, how messages name an image.
    static func name(of image: ExportImage) -> String { EntryDisplayName.of(archive: image.archive, entry: image.entry) }

    /// The path of the file the run read for `image`, or why it has none to point at.
    private static func originalFile(of image: ExportImage, in run: FinishedRun) throws(ExportError) -> String {
        func refuse(_ reason: String) -> ExportError { .originalNotReferenceable(image: name(of: image), reason: reason) }
        guard let input = run.input(named: image.archive), let path = input.path, !path.isEmpty else {
            throw refuse("run.json records no path for the input \(image.archive)")
        }
        guard path != "-" else { throw refuse("it was read from standard input") }
        if let frame = image.frame { throw refuse("it is frame \(frame) of a video, not a file of its own") }
        var status = stat()
        guard stat(path, &status) == 0 else { throw refuse("\(path): \(OSReason(errno: errno))") }
        let file: String
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            guard let entry = RunFolder.components(of: image.entry) else {
                throw refuse("its entry name is not a path inside the folder \(path)")
            }
            file = (path.hasSuffix("/") ? path : path + "/") + entry.joined(separator: "/")
        case S_IFREG:
            guard UprightImages.isImageFile(path) else { throw refuse("it is an entry of the archive \(path)") }
            file = path
        default:
            throw refuse("it was read from \(path), a stream, which cannot be opened again")
        }
        guard image.exifOrientation == 1 else {
            let orientation = image.exifOrientation.map(String.init) ?? "not recorded"
            throw refuse("its EXIF orientation is \(orientation), so the file's pixels are turned from the upright ones the annotations describe")
        }
        return file
    }

    /// The components of `path` made absolute and resolved: the longest
    /// existing start through `realpath`, the rest (not created yet) as given.
    private static func resolvedComponents(of path: String) -> [String] {
        var parts = components(of: path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        var missing: [String] = []
        while !parts.isEmpty {
            if let resolved = realpath("/" + parts.joined(separator: "/"), nil) {
                defer { free(resolved) }
                return components(of: String(cString: resolved)) + missing
            }
            missing.insert(parts.removeLast(), at: 0)
        }
        return missing
    }

    /// An absolute path's components, `.` dropped and `..` applied.
    private static func components(of path: String) -> [String] {
        var parts: [String] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(String(part))
        }
        return parts
    }

    /// `target` relative to the folder `base` (both absolute, as components).
    static func relative(from base: [String], to target: [String]) -> String {
        var common = 0
        while common < base.count, common < target.count - 1, base[common] == target[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }
}
