/// The items of one archive as an `AsyncSequence`, for `for try await`.
///
/// The archive is opened when iteration starts, and read synchronously inside
/// `next()` (libarchive is blocking): iterate from a single producer task and
/// hand entries to workers. Errors are `ArchiveError`s.
public struct ArchiveItemSequence: AsyncSequence, Sendable {
    public typealias Element = ArchiveItem

    public let path: String
    public let options: TarReader.Options

    public init(path: String, options: TarReader.Options = TarReader.Options()) {
        self.path = path
        self.options = options
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(path: path, options: options)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let path: String
        let options: TarReader.Options
        private var reader: TarReader?
        private var isDone = false

        init(path: String, options: TarReader.Options) {
            self.path = path
            self.options = options
        }

        public mutating func next() async throws -> ArchiveItem? {
            guard !isDone else { return nil }
            do {
                if reader == nil { reader = try TarReader(path: path, options: options) }
                guard let item = try reader?.next() else {
                    isDone = true
                    reader = nil
                    return nil
                }
                return item
            } catch {
                isDone = true
                reader = nil
                throw error
            }
        }
    }
}

extension TarReader {
    /// The items of the archive at `path` as an `AsyncSequence`.
    public static func items(path: String, options: Options = Options()) -> ArchiveItemSequence {
        ArchiveItemSequence(path: path, options: options)
    }
}
