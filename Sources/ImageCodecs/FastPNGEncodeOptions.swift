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
    /// are faster but their files were 20–90 % larger than libpng level 1's
    /// (Paeth: 0.89–1.03× on colour photos).
    public var filter: Filter
    /// Encode runs of repeated bytes or repeated RGB pixels as deflate
    /// matches (flat areas, borders, drawn shapes); otherwise Huffman coding only.
    public var runLengthMatches: Bool
    /// Approximate bytes of filtered rows per deflate block (whole rows;
    /// 4 KiB ... 16 MiB): each block gets its own Huffman codes.
    public var blockSize: Int
    /// When every pixel has R = G = B, write a greyscale PNG (colour type 0):
    /// one third of the data to compress, the same pixels after decoding.
    public var greyscaleWhenPossible: Bool
    /// Largest IDAT chunk; longer streams are split. `package`: tests lower it.
    package var maximumChunkLength = Int(Int32.max)
    /// Vector code paths where the CPU has them (the bytes are the same
    /// without). `package`: tests compare both.
    package var usesVectors = true

    public init(filter: Filter = .paeth, runLengthMatches: Bool = true, blockSize: Int = 256 * 1024,
                greyscaleWhenPossible: Bool = true) {
        self.filter = filter
        self.runLengthMatches = runLengthMatches
        self.blockSize = blockSize
        self.greyscaleWhenPossible = greyscaleWhenPossible
    }

    /// Short form for names and logs, e.g. `paeth, runs, 256 KiB blocks, grey as 1 channel`.
    public var description: String {
        "\(filter), \(runLengthMatches ? "runs" : "huffman only"), \(blockSize / 1024) KiB blocks"
            + (greyscaleWhenPossible ? ", grey as 1 channel" : "")
    }
}
