#!/usr/bin/env python3
"""YuNet (libfacedetection, PyPI `yuface==2023.5.1`, weights compiled in) on
image files, printing the same JSON lines as `facepipe detect`.

Each file is opened with Pillow and turned upright with
`ImageOps.exif_transpose`, converted to BGR uint8 and passed at full
resolution to `yuface.detect(image, conf)`. yuface reports
confidences as integers 0…100; they are printed as 0…1. Set
OMP_NUM_THREADS=1 to keep it to one core.

Usage: yunet_detect.py [--min-score 0.3] FILES...
"""
import argparse
import json
import sys

import numpy as np
import yuface
from upright import open_upright


def detect(path: str, min_score: float) -> dict:
    image, failure = open_upright(path)
    if failure:
        return failure
    width, height = image.size
    bgr = np.ascontiguousarray(np.asarray(image)[:, :, ::-1])
    confs, boxes, _ = yuface.detect(bgr, min_score)
    faces = [{"x": float(b[0]), "y": float(b[1]), "w": float(b[2]), "h": float(b[3]), "score": float(c) / 100}
             for c, b in zip(confs, boxes)]
    faces.sort(key=lambda f: (-f["score"], f["x"], f["y"]))
    return {"file": path, "width": width, "height": height, "faces": faces}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-score", type=float, default=0.3, help="conf_thresh, 0…1 (default 0.3)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failures = 0
    for path in args.files:
        line = detect(path, args.min_score)
        failures += "error" in line
        print(json.dumps(line, sort_keys=True), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
