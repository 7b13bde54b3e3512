import ImageCore

/// One aligned crop of a face, made by ``Crops``: which alignment, its size,
/// the map from upright-image pixels to crop pixels (continuous coordinates:
/// pixel `i` covers `i…i+1`) and, once written, its path relative to DIR.
public struct AlignedCrop: Sendable, Hashable, Codable {
    /// The alignment recipe.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// 112×112, five points onto the ArcFace template (insightface's `norm_crop`).
        case arcface
        /// FFHQ's eye-to-mouth square (the FFHQ dataset's alignment), any size.
        case ffhq
    }

    public var kind: Kind
    public var size: Int
    /// Upright-image pixels → crop pixels.
    public var imageToCrop: AffineMap
    /// Where the writer put the crop (`crops/<archive>/<entry>/<face>.<kind>.png`); nil until written.
    public var path: String?
    /// The encoded PNG until the writer writes it (not cached, not in the JSON).
    public var png: [UInt8] = []

    public init(kind: Kind, size: Int, imageToCrop: AffineMap, png: [UInt8]) {
        self.kind = kind
        self.size = size
        self.imageToCrop = imageToCrop
        self.png = png
    }

    /// The crop's file name inside its entry's crop folder.
    package func fileName(face: Int) -> String { "\(face).\(kind.rawValue).png" }

    // The PNG bytes travel with the record only from ``Crops`` to the writer.
    private enum CodingKeys: String, CodingKey { case kind, size, imageToCrop, path }
}
