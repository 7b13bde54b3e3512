#!/usr/bin/env python3
"""How many of the finest pyramid level's canvas pixels a finer contrast skip
would save: each whole-height canvas (DetectionRegionPlan.canvasSpans, 1056 px
wide at most, 64 px overlap) cut to the rows of 16x16 blocks with a grey-level
standard deviation >= THRESHOLD, grown by MARGIN blocks, split where MIN_GAP
or more block rows are flat, each part narrowed to its textured columns.

Prints the canvas pixels kept over the canvas pixels today (level 0, which
is 75 % of `faces`' detector pixels at the 20-px floor) and the canvas count.

Usage: .venv/bin/python benchmarks/eval/contrast_trim.py ARCHIVE [--threshold 8]
       [--margin 4] [--min-gap 4] [--images 80]
"""
import argparse
import io
import tarfile

import numpy as np
from PIL import Image, ImageOps


def spans(extent, granularity=16, maximum=1056, overlap=64):
    """DetectionRegionPlan.canvasSpans: (origin, size) of each canvas column."""
    fitted = (max(extent, 1) + granularity - 1) // granularity * granularity
    if fitted <= maximum:
        return [(-(fitted - extent) // 2, fitted)]
    count = (extent - overlap + (maximum - overlap) - 1) // (maximum - overlap)
    share = (extent + (count - 1) * overlap + count - 1) // count
    size = min((share + granularity - 1) // granularity * granularity, maximum)
    room = extent - size
    out = []
    for i in range(count):
        near = min(i, count - 1 - i)
        offset = room * near // (count - 1)
        out.append((offset if i == near else room - offset, size))
    return out


def grow(mask, steps):
    for _ in range(steps):
        grown = mask.copy()
        grown[1:, :] |= mask[:-1, :]
        grown[:-1, :] |= mask[1:, :]
        grown[:, 1:] |= mask[:, :-1]
        grown[:, :-1] |= mask[:, 1:]
        mask = grown
    return mask


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--threshold", type=float, default=8)
    parser.add_argument("--margin", type=int, default=4)
    parser.add_argument("--min-gap", type=int, default=4)
    parser.add_argument("--images", type=int, default=80)
    args = parser.parse_args()
    today = kept = parts = images = 0
    with tarfile.open(args.archive) as tar:
        for member in tar:
            if images >= args.images:
                break
            if not member.isfile():
                continue
            try:
                image = ImageOps.exif_transpose(Image.open(io.BytesIO(tar.extractfile(member).read()))).convert("L")
            except Exception:
                continue
            grey = np.asarray(image, dtype=np.float32)
            height, width = grey.shape
            if max(height, width) <= 128:
                continue
            images += 1
            fitted = (height + 15) // 16 * 16
            top = -(fitted - height) // 2
            for left, size in spans(width):
                today += size * fitted
                rows, columns = fitted // 16, size // 16
                textured = np.zeros((rows, columns), bool)
                for r in range(rows):
                    y0, y1 = max(top + 16 * r, 0), min(top + 16 * r + 16, height)
                    if y1 - y0 < 4:
                        continue
                    for c in range(columns):
                        x0, x1 = max(left + 16 * c, 0), min(left + 16 * c + 16, width)
                        if x1 - x0 >= 4 and grey[y0:y1, x0:x1].std() >= args.threshold:
                            textured[r, c] = True
                if not textured.any():
                    continue
                textured = grow(textured, args.margin)
                live = np.where(textured.any(axis=1))[0]
                runs, start, previous = [], live[0], live[0]
                for r in live[1:]:
                    if r - previous - 1 >= args.min_gap:
                        runs.append((start, previous))
                        start = r
                    previous = r
                runs.append((start, previous))
                for first, last in runs:
                    used = np.where(textured[first:last + 1].any(axis=0))[0]
                    kept += (last - first + 1) * 16 * (used[-1] - used[0] + 1) * 16
                    parts += 1
    print(f"threshold {args.threshold:g}, margin {args.margin} blocks, split at {args.min_gap} flat rows: "
          f"{kept / today:.3f} of level-0 canvas pixels kept, {parts} canvases, {images} images")


if __name__ == "__main__":
    main()
