/// What run.json records of one input's bytes: their SHA-256 and count,
/// taken in the pass that reads the entries.
///
/// - archive (file, pipe, standard input): SHA-256 of every byte of the
///   stream, as `sha256sum` prints it;
/// - folder: SHA-256 of the listing `<relative path> NUL <file SHA-256 hex> LF`
///   over the regular files read, in entry order (relative paths sorted by
///   their bytes); `bytes` is the sum of their sizes;
/// - single image: SHA-256 of the file.
public struct InputDigest: Sendable, Equatable {
    /// Lower-case hex.
    public var sha256: String
    public var bytes: Int64

    package init(sha256: String, bytes: Int64) {
        self.sha256 = sha256
        self.bytes = bytes
    }
}
