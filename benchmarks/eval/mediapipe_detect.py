#!/usr/bin/env python3
"""MediaPipe's own Python face detection on image files, printing the same
JSON lines as `facepipe detect`.

Runs in the `.venv-mediapipe` virtualenv (mediapipe 0.10.14, which ships the
BlazeFace models). Each file is opened with Pillow and turned upright with
`ImageOps.exif_transpose` (MediaPipe itself ignores EXIF), then passed to
`mp.solutions.face_detection.FaceDetection(model_selection=M,
min_detection_confidence=S)` — model 0 is short range, 1 is full range.

One line per file: {"file", "width", "height", "faces": [{"x", "y", "w", "h",
"score"}]} with boxes in upright pixels, or {"file", "error"} when the file
cannot be read.

Usage: mediapipe_detect.py --model 0|1 [--min-score 0.5] FILES...
"""
import argparse
import json
import sys

import mediapipe as mp
import numpy as np
from upright import open_upright


def detect(detector, path: str) -> dict:
    image, failure = open_upright(path)
    if failure:
        return failure
    width, height = image.size
    faces = []
    for detection in detector.process(np.asarray(image)).detections or []:
        box = detection.location_data.relative_bounding_box
        faces.append({
            "x": box.xmin * width, "y": box.ymin * height,
            "w": box.width * width, "h": box.height * height,
            "score": float(detection.score[0]),
        })
    faces.sort(key=lambda f: (-f["score"], f["x"], f["y"]))
    return {"file": path, "width": width, "height": height, "faces": faces}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=int, choices=[0, 1], required=True,
                        help="0: short range (faces within ~2 m), 1: full range")
    parser.add_argument("--min-score", type=float, default=0.5, help="min_detection_confidence (default 0.5)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failures = 0
    with mp.solutions.face_detection.FaceDetection(
        model_selection=args.model, min_detection_confidence=args.min_score
    ) as detector:
        for path in args.files:
            line = detect(detector, path)
            failures += "error" in line
            print(json.dumps(line, sort_keys=True), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
