/// How `FastPNGEncoder` writes a PNG. Every combination gives a valid,
/// lossless PNG; output bytes depend only on the pixels and these options.
public struct FastPNGEncodeOptions: Sendable, Hashable, CustomStringConvertible {
    /// The PNG row filter applied to every row.
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        case none, sub, up, average, paeth
    }

    /// Row filter (the same for every row). The default, Paeth, was chosen by
    /// measurement on the 13 photos of datasets/sources (`make bench-codecs`):
    /// 8 % smaller files than Up for about 20 % less speed; Up, Sub and None
    /// are faster but their files are 20–90 % larger than libpng level 1's.
    public var filter: Filter
    /// Encode runs of repeated bytes or repeated RGB pixels as deflate
    /// matches (flat areas, borders, drawn shapes); otherwise Huffman coding only.
    public var runLengthMatches: Bool
    /// Approximate bytes of filtered rows per deflate block (whole rows;
    /// 4 KiB ... 16 MiB): each block gets its own Huffman codes.
    public var blockSize: Int
    /// Largest IDAT chunk; longer streams are split. `package`: tests lower it.
    package var maximumChunkLength = Int(Int32.max)

    public init(filter: Filter = .paeth, runLengthMatches: Bool = true, blockSize: Int = 256 * 1024) {
        self.filter = filter
        self.runLengthMatches = runLengthMatches
        self.blockSize = blockSize
    }

    /// Short form for names and logs, e.g. `up, runs, 256 KiB blocks`.
    public var description: String {
        "\(filter), \(runLengthMatches ? "runs" : "huffman only"), \(blockSize / 1024) KiB blocks"
    }
}
