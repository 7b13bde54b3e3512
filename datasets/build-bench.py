#!/usr/bin/env python3
"""Builds datasets/build/bench.tar: a seeded, reproducible mix of images for
throughput benchmarks, made from the photos in datasets/sources/.

Per image (seeded choice): a source photo (about 80 % with faces), a size
drawn log-uniformly between 0.3 and 12 megapixels, and a kind:
  jpeg     (~75 %) quality 75–95, 4:2:0, baseline or progressive
  exif     (~10 %) JPEG stored turned, with EXIF orientation 3, 6 or 8
  png      (~8 %)  PNG, capped at 2 MP (PNG encoding is slow and large)
  collage  (~7 %)  several small faces (20–160 px) on a 2–12 MP canvas
Entries are named bench/NNNN-<kind>-<source>-<W>x<H>.<ext> in build order.
Same seed + sources + Pillow → same bytes. Prints a summary with the sha256.

  .venv/bin/python datasets/build-bench.py --out datasets/build/bench.tar --count 400
"""
import argparse
import math
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import dataset_common as common  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(common.ROOT / "datasets" / "build" / "bench.tar"))
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=400)
    parser.add_argument("--min-mp", type=float, default=0.3)
    parser.add_argument("--max-mp", type=float, default=12.0)
    parser.add_argument("--no-fetch", action="store_true", help="do not run fetch-sources.py first")
    args = parser.parse_args()
    if args.count < 1 or not (0 < args.min_mp <= args.max_mp):
        parser.error("need --count ≥ 1 and 0 < --min-mp ≤ --max-mp")
    if not args.no_fetch:
        common.ensure_sources()

    rng = random.Random(args.seed)
    sources = {name: common.load(name).convert("RGB") for name in common.FACE_SOURCES + common.NO_FACE_SOURCES}
    grey = {"camera.png", "einstein.jpg"}
    out = pathlib.Path(args.out)
    tar = common.DeterministicTar(out)
    kinds, pixels, started = {}, 0, time.time()
    for i in range(args.count):
        name = rng.choice(common.FACE_SOURCES) if rng.random() < 0.8 else rng.choice(common.NO_FACE_SOURCES)
        roll = rng.random()
        kind = "jpeg" if roll < 0.75 else "exif" if roll < 0.85 else "png" if roll < 0.93 else "collage"
        megapixels = math.exp(rng.uniform(math.log(args.min_mp), math.log(args.max_mp)))
        if kind == "png":
            megapixels = min(megapixels, 2.0)
        stem = name.rsplit(".", 1)[0]
        if kind == "collage":
            aspect = rng.choice([4 / 3, 3 / 2, 16 / 9])
            megapixels = max(megapixels, 2.0)
            width = round(math.sqrt(megapixels * 1e6 * aspect))
            size = (width, round(width / aspect))
            faces = [rng.choice([20, 24, 32, 40, 48, 60, 80, 120, 160]) for _ in range(rng.randint(4, 14))]
            image, _, _ = common.collage(size, faces, rng, i)
            stem = "faces"
        else:
            source = sources[name] if name not in grey else sources[name].convert("L")
            scale = math.sqrt(megapixels * 1e6 / (source.width * source.height))
            size = (max(16, round(source.width * scale)), max(16, round(source.height * scale)))
            image = common.resized(source, size)
        if kind == "png":
            data, ext = common.png(image, 6), "png"
        elif kind == "exif":
            orientation = rng.choice([3, 6, 8])
            data, ext = common.jpeg(common.stored_for_orientation(image, orientation), rng.randint(80, 92), orientation), "jpg"
        else:
            data, ext = common.jpeg(image, rng.randint(75, 95), progressive=rng.random() < 0.15), "jpg"
        tar.add(f"bench/{i:04d}-{kind}-{stem}-{image.width}x{image.height}.{ext}", data)
        kinds[kind] = kinds.get(kind, 0) + 1
        pixels += image.width * image.height
    digest = tar.close()
    summary = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    print(f"{out}: {tar.count} images ({summary}), {pixels / 1e6:.0f} MP in total, "
          f"{out.stat().st_size / 1e6:.0f} MB, sha256 {digest} ({time.time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
