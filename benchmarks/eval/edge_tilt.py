#!/usr/bin/env python3
"""Whether a picture's own edges say it is turned: the measurement behind
issue 53's question of a cue that tells a turned picture from an upright
one before any face is found (docs/BENCHMARKS.md, "Whole pictures turned").

For each picture, upright and turned by ±15° and ±30° (counter-clockwise on
screen, Pillow's sense) and cut to the largest upright rectangle of the same
aspect inside the turned picture (no border: a photo taken askew, not a
scan), the cue is a document deskewer's: the gradient directions of a
512-px-wide grey copy (Sobel), modulo 90°, in a histogram of 1° bins
weighted by gradient magnitude and smoothed over 5°; its peak is the tilt
the picture's edges show (−44…45°). Prints, per turn, how many pictures'
cue lies within 3° of that turn (either sense) and within 3° of upright,
and lists the upright pictures whose cue is off upright.

  .venv/bin/python benchmarks/eval/edge_tilt.py DIR   (every *.jpg / *.png under DIR)
"""
import math
import pathlib
import sys

import numpy as np
from PIL import Image, ImageOps

TURNS = (0, -30, 30, -15, 15)


def edge_tilt(image: Image.Image) -> tuple:
    """The tilt (degrees) the picture's edges show, and the peak over the histogram's mean."""
    height = max(8, round(512 * image.height / image.width))
    g = np.asarray(image.convert("L").resize((512, height), Image.BILINEAR), dtype=np.float32)
    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[1:-1, 1:-1] = 2 * (g[1:-1, 2:] - g[1:-1, :-2]) + (g[:-2, 2:] - g[:-2, :-2]) + (g[2:, 2:] - g[2:, :-2])
    gy[1:-1, 1:-1] = 2 * (g[2:, 1:-1] - g[:-2, 1:-1]) + (g[2:, :-2] - g[:-2, :-2]) + (g[2:, 2:] - g[:-2, 2:])
    direction = np.degrees(np.arctan2(gy, gx)) % 90.0
    histogram, _ = np.histogram(direction, bins=90, range=(0, 90), weights=np.hypot(gx, gy))
    smoothed = np.convolve(np.concatenate([histogram[-2:], histogram, histogram[:2]]), np.ones(5) / 5, mode="valid")
    peak = int(np.argmax(smoothed))
    return (peak if peak < 45 else peak - 90), float(smoothed[peak] / smoothed.mean())


def turned_inside(image: Image.Image, angle: float) -> Image.Image:
    """`image` turned by `angle` degrees, cut to the largest rectangle of its aspect inside the turned picture."""
    width, height = image.size
    turned = image.rotate(angle, resample=Image.BICUBIC, expand=True)
    s, c = abs(math.sin(math.radians(angle))), abs(math.cos(math.radians(angle)))
    k = min(width / (width * c + height * s), height / (width * s + height * c))
    cx, cy = turned.size[0] / 2, turned.size[1] / 2
    return turned.crop((int(cx - width * k / 2), int(cy - height * k / 2), int(cx + width * k / 2), int(cy + height * k / 2)))


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    files = sorted(p for p in pathlib.Path(sys.argv[1]).rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    cues = {turn: [] for turn in TURNS}
    for path in files:
        with Image.open(path) as opened:
            image = ImageOps.exif_transpose(opened).convert("RGB")
        for turn in TURNS:
            cues[turn].append(edge_tilt(image if turn == 0 else turned_inside(image, turn)))
    for turn in TURNS:
        tilts = [tilt for tilt, _ in cues[turn]]
        named = sum(1 for tilt in tilts if abs(abs(tilt) - abs(turn)) <= 3)
        upright = sum(1 for tilt in tilts if abs(tilt) <= 3)
        print(f"turned {turn:+d}°: {len(tilts)} pictures, cue within 3° of ±{abs(turn)}°: {named}, within 3° of upright: {upright}")
    off = [f"{path.name} {tilt:+d}°" for path, (tilt, _) in zip(files, cues[0]) if abs(tilt) > 3]
    print(f"upright pictures whose edges show a tilt: {len(off)}" + (": " + ", ".join(off) if off else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
