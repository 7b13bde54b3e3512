import ArchiveIO
import Foundation
import ImageCodecs
import Pipeline

extension RedactedTars {
    /// What `--redacted-shards` needs, checked before anything is created:
    /// a pipeline that redacts and writes JPEGs (their quality serves the
    /// JPEG members; PNG members stay PNG), and inputs that are tar files,
    /// plain or compressed as ``TarWriter`` can write back. Returns each
    /// input's shard name and compression.
    static func check(_ plan: CompiledPipeline, inputs: [RunInput]) throws(PipelineError) -> [Input] {
        guard plan.steps.contains(where: { $0.definition.name == Redact.stageName }) else {
            throw .invalidRunConfiguration("--redacted-shards swaps a dataset's images for redacted ones; pipeline \(plan.name) has no redact stage (use anonymize)")
        }
        let images = plan.steps.last { $0.definition.name == WriteOutputs.stageName }?
            .definition.options.first { $0.name == "images" }?.value
        guard let images, ImageOutputFormat(optionText: images)?.jpegQuality != nil else {
            throw .invalidRunConfiguration("--redacted-shards writes JPEG members as JPEG at write-outputs' quality; pipeline \(plan.name) writes \(images ?? "no") images (set write-outputs.images='jpeg(quality: N)')")
        }
        return try inputs.map { input throws(PipelineError) in
            Input(name: input.name, compression: try compression(of: input))
        }
    }

    /// The compression of the tar file `input` (refusing anything else).
    private static func compression(of input: RunInput) throws(PipelineError) -> TarWriter.Compression {
        func refuse(_ what: String) -> PipelineError {
            .invalidRunConfiguration("--redacted-shards writes one shard per input tar file; \(input.path ?? input.name) is \(what)")
        }
        guard let path = input.path, path != "-" else { throw refuse("a stream (give the tar file itself)") }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw refuse("a folder (pack it as a tar first)")
        }
        guard regularFileSize(path) != nil, let handle = FileHandle(forReadingAtPath: path) else {
            throw refuse("not a regular file (a pipe or device)")
        }
        defer { try? handle.close() }
        let prefix = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        if ImageFormat(sniffing: prefix) != nil { throw refuse("a single image, not a tar") }
        switch ArchiveSignature(prefix: prefix) {
        case .tar(let compression): return compression
        case .zip: throw refuse("a zip (a shard is a tar)")
        case .unwritableCompression(let name): throw refuse("compressed with \(name), which facepipe reads but does not write (recompress it with gzip, bzip2, xz or zstd)")
        }
    }
}
