#!/usr/bin/env python3
"""In-plane rotation: which rotated faces a detector misses, and how much of
a low IoU is only the box convention.

Every face the eval set cuts from the source photos (build-eval.py's crops)
is pasted, at a chosen width and turned by each angle, alone on a plain grey
canvas, and each detector runs on those images. Per angle it reports:

- found: a detection whose centre lies inside the face's rotated box and
  whose IoU with either label below is >= 0.3 (the face was detected);
- IoU >= 0.5 against two labels: "upright", the unrotated box size centred
  on the rotated face (the eval set's labels), and "hull", the axis-aligned
  box around the rotated face box (what a label drawn around the turned face
  would be);
- the mean width of the matched detection over the face's unrotated width.

Usage: .venv/bin/python benchmarks/eval/rotation.py --facepipe BIN [--width 80]
       [--angles 0,10,15,20,25,30,40] [--out DIR]
YuNet (yuface, in .venv) runs in this process at its threshold 0.3.
"""
import argparse
import importlib.util
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("build_eval", ROOT / "datasets" / "build-eval.py")
build_eval = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_eval)


def iou(a, b):
    ax1, ay1, bx1, by1 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    w = max(0.0, min(ax1, bx1) - max(a[0], b[0]))
    h = max(0.0, min(ay1, by1) - max(a[1], b[1]))
    inter = w * h
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def hull(box, angle):
    x, y, w, h = box
    a = math.radians(angle)
    hw = (w * abs(math.cos(a)) + h * abs(math.sin(a))) / 2
    hh = (w * abs(math.sin(a)) + h * abs(math.cos(a))) / 2
    cx, cy = x + w / 2, y + h / 2
    return [cx - hw, cy - hh, 2 * hw, 2 * hh]


def inside_rotated(px, py, box, angle):
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    a = math.radians(angle)
    dx, dy = px - cx, py - cy
    # into the face's frame (the piece was turned counter-clockwise on screen)
    u = dx * math.cos(a) - dy * math.sin(a)
    v = dx * math.sin(a) + dy * math.cos(a)
    return abs(u) <= w / 2 and abs(v) <= h / 2


def yunet(paths):
    import yuface
    lines = []
    for path in paths:
        image = Image.open(path).convert("RGB")
        bgr = np.ascontiguousarray(np.asarray(image)[:, :, ::-1])
        confs, boxes, _ = yuface.detect(bgr, 0.3)
        lines.append({"file": str(path), "faces": [{"x": float(b[0]), "y": float(b[1]), "w": float(b[2]), "h": float(b[3]),
                                                    "score": float(c) / 100} for c, b in zip(confs, boxes)]})
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facepipe", required=True)
    parser.add_argument("--width", type=float, default=80)
    parser.add_argument("--angles", default="0,10,15,20,25,30,40")
    parser.add_argument("--min-confidence", default="0.7")
    parser.add_argument("--out")
    args = parser.parse_args()
    angles = [float(a) for a in args.angles.split(",")]
    out = pathlib.Path(args.out or tempfile.mkdtemp(prefix="rotation-"))
    out.mkdir(parents=True, exist_ok=True)
    crops = build_eval.face_crops()
    labels = {}
    for ci, crop in enumerate(crops):
        for angle in angles:
            for sign in ([1] if angle == 0 else [1, -1]):
                piece, box = crop.scaled(args.width, sign * angle)
                side = int(max(piece.width, piece.height) * 1.6) + 64
                canvas = Image.new("RGB", (side, side), (128, 128, 128))
                ox, oy = (side - piece.width) // 2, (side - piece.height) // 2
                canvas.paste(piece, (ox, oy), piece)
                path = out / f"crop{ci:02d}-{crop.photo.split('.')[0]}-a{int(sign * angle):+03d}.png"
                canvas.save(path)
                labels[str(path)] = ([box[0] + ox, box[1] + oy, box[2], box[3]], sign * angle)
    paths = sorted(labels)
    run = subprocess.run([args.facepipe, "detect", "--min-confidence", args.min_confidence, "--workers", "2", *paths],
                         capture_output=True, text=True)
    methods = {"facepipe detect": [json.loads(line) for line in run.stdout.splitlines() if line.strip()],
               "YuNet": yunet(paths)}
    print(f"{len(crops)} faces × angles, face width {args.width:.0f} px; images in {out}")
    for name, lines in methods.items():
        by_file = {line["file"]: line.get("faces", []) for line in lines}
        print(f"\n{name}")
        print("| angle | faces | found | IoU≥0.5 upright | IoU≥0.5 hull | det width / face width |")
        print("|---|---|---|---|---|---|")
        for angle in angles:
            rows = [(p, labels[p]) for p in paths if abs(labels[p][1]) == angle]
            found = upright = hulled = 0
            ratios = []
            for path, (box, signed) in rows:
                best = None
                for f in by_file.get(path, []):
                    d = [f["x"], f["y"], f["w"], f["h"]]
                    cx, cy = d[0] + d[2] / 2, d[1] + d[3] / 2
                    if not inside_rotated(cx, cy, box, signed):
                        continue
                    score = max(iou(d, box), iou(d, hull(box, signed)))
                    if score >= 0.3 and (best is None or score > best[0]):
                        best = (score, d)
                if best is None:
                    continue
                d = best[1]
                found += 1
                upright += iou(d, box) >= 0.5
                hulled += iou(d, hull(box, signed)) >= 0.5
                ratios.append(d[2] / box[2])
            mean = sum(ratios) / len(ratios) if ratios else float("nan")
            print(f"| {angle:.0f}° | {len(rows)} | {found} | {upright} | {hulled} | {mean:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
