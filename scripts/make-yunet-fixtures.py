#!/usr/bin/env python3
"""YuNet-s reference detections for the Swift parity test (Tests/Fixtures/faces/yunet/).

Runs in the reference venv (`make venv`, which pins yuface==2023.5.1) with one
OpenMP thread:

    OMP_NUM_THREADS=1 .venv/bin/python scripts/make-yunet-fixtures.py

For each photo from datasets/sources (`make sources`) it decodes the file to
RGB with Pillow (facepipe's decoder gives the same pixels; the fixture records
their SHA-256 so a test notices if not), optionally shrinks it by an integer
factor with a rounded box average that the test repeats exactly, hands the
BGR bytes to `yuface.detect(bgr, CONFIDENCE)` and writes one small JSON file:

    photo, photoSHA256        the source file and the SHA-256 of its bytes
    boxAverage                1, or the factor f: each output pixel is the
                              rounded mean (sum + f*f/2) // (f*f) of an f×f block,
                              size floor(width/f) × floor(height/f)
    width, height             of the picture given to the detector
    pixelsSHA256              SHA-256 of that picture's RGB bytes, row-major
    confidence                the threshold given to yuface.detect (it keeps
                              integer percent scores > 100·confidence)
    detections                as yuface returns them: score (integer percent,
                              truncated), box [x, y, w, h] and five landmarks
                              [x, y] (integers truncated toward zero; yuface
                              hands them out as uint16, read back here as int16
                              so boxes past the left or top edge stay negative)
"""
import hashlib
import json
import os
import pathlib
import sys

import numpy as np
from PIL import Image
import yuface

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "datasets" / "sources"
OUT = ROOT / "Tests" / "Fixtures" / "faces" / "yunet"
CONFIDENCE = 0.3
# (photo, box-average factor): a group photo at full size and shrunk so its
# faces are 20-30 px, a portrait, and a second portrait.
CASES = [("t1.jpg", 1), ("t1.jpg", 4), ("astronaut.png", 1), ("lenna.png", 1)]


def box_average(rgb: np.ndarray, factor: int) -> np.ndarray:
    if factor == 1:
        return rgb
    h, w = rgb.shape[0] // factor, rgb.shape[1] // factor
    blocks = rgb[: h * factor, : w * factor].astype(np.uint32).reshape(h, factor, w, factor, 3)
    total = blocks.sum(axis=(1, 3))
    return ((total + factor * factor // 2) // (factor * factor)).astype(np.uint8)


def signed(values) -> list:
    return [int(np.int16(np.uint16(v))) for v in values]


def main() -> int:
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("make-yunet-fixtures: run with OMP_NUM_THREADS=1", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for photo, factor in CASES:
        path = SOURCES / photo
        if not path.is_file():
            print(f"make-yunet-fixtures: {path} is missing (make sources)", file=sys.stderr)
            return 2
        rgb = box_average(np.asarray(Image.open(path).convert("RGB")), factor)
        rgb = np.ascontiguousarray(rgb)
        bgr = np.ascontiguousarray(rgb[:, :, ::-1])
        confs, boxes, landmarks = yuface.detect(bgr, CONFIDENCE)
        detections = []
        for score, box, points in zip(confs, boxes, landmarks):
            p = signed(points)
            detections.append({"score": int(score), "box": signed(box), "landmarks": [p[i:i + 2] for i in range(0, 10, 2)]})
        fixture = {
            "generator": "yuface 2023.5.1 (libfacedetection), OMP_NUM_THREADS=1",
            "photo": photo,
            "photoSHA256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "boxAverage": factor,
            "width": int(rgb.shape[1]),
            "height": int(rgb.shape[0]),
            "pixelsSHA256": hashlib.sha256(rgb.tobytes()).hexdigest(),
            "confidence": CONFIDENCE,
            "detections": detections,
        }
        name = f"{pathlib.Path(photo).stem}{'' if factor == 1 else f'-by{factor}'}.json"
        (OUT / name).write_text(json.dumps(fixture, indent=1) + "\n")
        print(f"{name}: {rgb.shape[1]}x{rgb.shape[0]}, {len(detections)} detections")
    return 0


if __name__ == "__main__":
    sys.exit(main())
