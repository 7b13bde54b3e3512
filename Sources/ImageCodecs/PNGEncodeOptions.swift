/// How `PNGEncoder` (libpng) compresses. Every combination gives a valid, lossless PNG;
/// they trade speed against size. Output bytes depend only on the pixels and
/// these options (no timestamps or text chunks are written).
public struct PNGEncodeOptions: Sendable, Hashable {
    /// zlib compression strategies (see zlib's `deflateInit2`).
    public enum Strategy: Int32, Sendable, Hashable, CaseIterable {
        /// `Z_DEFAULT_STRATEGY`: LZ77 matches and Huffman coding.
        case `default` = 0
        /// `Z_FILTERED`: favours Huffman coding over short matches.
        case filtered = 1
        /// `Z_HUFFMAN_ONLY`: no matches at all.
        case huffmanOnly = 2
        /// `Z_RLE`: matches of distance one only (runs); fast, and good on filtered photo rows.
        case rle = 3
    }

    /// PNG row filters. `.adaptive` lets libpng pick one per row (sum of absolute differences).
    public enum Filter: Int32, Sendable, Hashable, CaseIterable {
        case none = 0x08
        case sub = 0x10
        case up = 0x20
        case average = 0x40
        case paeth = 0x80
        case adaptive = 0xF8
    }

    /// zlib level, 0 (store) ... 9 (smallest).
    public var level: Int
    public var strategy: Strategy
    public var filter: Filter

    /// The default was chosen by measurement on 7 photos from datasets/sources
    /// (`benchmarks/codecs.sh`, sweep of level 1/2/3/6/9 × 4 strategies × 6
    /// filters): level 1 with the default strategy and the Up filter encoded
    /// about 1.5× faster than OpenCV's default (level 1, RLE, adaptive
    /// filters: libpng tries all five filters on every row) and gave 7 %
    /// smaller files (1.32 vs 1.41 bytes/pixel).
    public init(level: Int = 1, strategy: Strategy = .default, filter: Filter = .up) {
        self.level = level
        self.strategy = strategy
        self.filter = filter
    }

    /// OpenCV's `cv::imwrite` default for PNG: level 1, `Z_RLE`, adaptive filtering.
    public static let opencvDefault = PNGEncodeOptions(level: 1, strategy: .rle, filter: .adaptive)
    /// libpng's and zlib's own defaults: level 6, default strategy, adaptive filtering.
    public static let zlibDefault = PNGEncodeOptions(level: 6, strategy: .default, filter: .adaptive)
}
