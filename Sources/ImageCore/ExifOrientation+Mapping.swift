extension ExifOrientation {
    /// The upright image's size for a raw (stored) image of `rawWidth`×`rawHeight`.
    public func uprightSize(rawWidth: Int, rawHeight: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (rawHeight, rawWidth) : (rawWidth, rawHeight)
    }

    /// The orientation that undoes this one: 6 and 8 swap, the others are their
    /// own inverse.
    public var inverse: ExifOrientation {
        switch self {
        case .rightTop: return .leftBottom
        case .leftBottom: return .rightTop
        default: return self
        }
    }

    /// The map from raw to upright *continuous* coordinates (pixel (i, j) covers
    /// [i, i+1)×[j, j+1), so a pixel's centre lands on the centre of the pixel
    /// ``RGBImage/oriented(_:)`` moves it to).
    public func transform(rawWidth: Int, rawHeight: Int) -> AffineMap {
        let w = Float(rawWidth), h = Float(rawHeight)
        switch self {
        case .topLeft: return .identity                                             // (x, y)
        case .topRight: return AffineMap(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)   // (W−x, y)
        case .bottomRight: return AffineMap(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h) // (W−x, H−y)
        case .bottomLeft: return AffineMap(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)  // (x, H−y)
        case .leftTop: return AffineMap(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)      // (y, x)
        case .rightTop: return AffineMap(a: 0, b: -1, c: 1, d: 0, tx: h, ty: 0)    // (H−y, x)
        case .rightBottom: return AffineMap(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w) // (H−y, W−x)
        case .leftBottom: return AffineMap(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: w)  // (y, W−x)
        }
    }

    /// Where a point of the raw (stored) image lies in the upright image, in
    /// continuous pixel coordinates (origin top-left; pixel (i, j) has its
    /// centre at (i+0.5, j+0.5)).
    public func map(point: Point, rawWidth: Int, rawHeight: Int) -> Point {
        transform(rawWidth: rawWidth, rawHeight: rawHeight).map(point)
    }

    /// Where a point of the upright image lies in the raw (stored) image: the
    /// inverse of ``map(point:rawWidth:rawHeight:)``.
    public func unmap(point: Point, rawWidth: Int, rawHeight: Int) -> Point {
        let upright = uprightSize(rawWidth: rawWidth, rawHeight: rawHeight)
        return inverse.map(point: point, rawWidth: upright.width, rawHeight: upright.height)
    }
}
