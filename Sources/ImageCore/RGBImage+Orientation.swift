extension RGBImage {
    /// The upright image: the raw pixels moved as EXIF `orientation` says
    /// (1 identity, 2 mirror horizontal, 3 rotate 180°, 4 mirror vertical,
    /// 5 transpose, 6 rotate 90° clockwise, 7 transverse, 8 rotate 90°
    /// counter-clockwise). Orientations 5–8 swap width and height.
    ///
    /// Exact (a permutation of pixels). Raw pixel (i, j) lands on the pixel
    /// containing `orientation.map(point: (i+0.5, j+0.5), …)`.
    public func oriented(_ orientation: ExifOrientation) -> RGBImage {
        if orientation == .topLeft || pixelCount == 0 { return self }
        let (outWidth, outHeight) = orientation.uprightSize(rawWidth: width, rawHeight: height)
        // Destination pixel index of raw pixel (i, j) = origin + i·stepI + j·stepJ.
        let (w, h, ow) = (width, height, outWidth)
        let origin: Int, stepI: Int, stepJ: Int
        switch orientation {
        case .topLeft: (origin, stepI, stepJ) = (0, 1, ow)
        case .topRight: (origin, stepI, stepJ) = (w - 1, -1, ow)                  // (W−1−i, j)
        case .bottomRight: (origin, stepI, stepJ) = ((h - 1) * ow + w - 1, -1, -ow) // (W−1−i, H−1−j)
        case .bottomLeft: (origin, stepI, stepJ) = ((h - 1) * ow, 1, -ow)          // (i, H−1−j)
        case .leftTop: (origin, stepI, stepJ) = (0, ow, 1)                          // (j, i)
        case .rightTop: (origin, stepI, stepJ) = (h - 1, ow, -1)                    // (H−1−j, i)
        case .rightBottom: (origin, stepI, stepJ) = ((w - 1) * ow + h - 1, -ow, -1) // (H−1−j, W−1−i)
        case .leftBottom: (origin, stepI, stepJ) = ((w - 1) * ow, -ow, 1)           // (j, W−1−i)
        }
        let out = [UInt8](hugePageBacked: pixels.count) { destination in
            pixels.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = destination.baseAddress!
                if !orientation.swapsDimensions {
                    // Rows stay rows: copy (or reverse) each row in one sweep.
                    let rowBytes = w * 3
                    for j in 0..<h {
                        let from = src + j * rowBytes
                        let to = dst + (origin + j * stepJ) * 3
                        if stepI == 1 {
                            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: rowBytes)
                        } else {
                            // Mirrored row: walk the destination right to left.
                            var d = to
                            var s = from
                            for _ in 0..<w {
                                d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
                                d -= 3
                                s += 3
                            }
                        }
                    }
                    return
                }
                // Tiles keep both the rows read and the columns written in cache
                // for the transposing cases. A pixel moves as one 4-byte load and
                // store; the store's fourth byte lands on the first byte of the
                // destination pixel to its right, which holds raw row j + stepJ, so
                // rows are visited in the direction of stepJ (that pixel is written
                // later). The raw row landing in the last destination column (whose
                // right neighbour starts the next destination row) and the last raw
                // pixel (whose load would pass the end) move byte by byte.
                let tile = 32
                let count = w * h * 3
                let lastColumnRow = stepJ > 0 ? h - 1 : 0
                let tileRows = (h + tile - 1) / tile
                for tileRow in 0..<tileRows {
                    let tileJ = (stepJ > 0 ? tileRow : tileRows - 1 - tileRow) * tile
                    let jEnd = min(tileJ + tile, h)
                    for tileI in stride(from: 0, to: w, by: tile) {
                        let iEnd = min(tileI + tile, w)
                        for step in 0..<(jEnd - tileJ) {
                            let j = stepJ > 0 ? tileJ + step : jEnd - 1 - step
                            var s = (j * w + tileI) * 3
                            var d = origin + tileI * stepI + j * stepJ
                            let wordsFit = j != lastColumnRow
                            for _ in tileI..<iEnd {
                                if wordsFit && s + 4 <= count {
                                    UnsafeMutableRawPointer(dst + d * 3).storeBytes(
                                        of: UnsafeRawPointer(src + s).loadUnaligned(as: UInt32.self), as: UInt32.self)
                                } else {
                                    let o = d * 3
                                    dst[o] = src[s]; dst[o + 1] = src[s + 1]; dst[o + 2] = src[s + 2]
                                }
                                s += 3
                                d += stepI
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }
}
