#!/usr/bin/env python3
"""Faces left unredacted: for every labelled face, the share of its box
covered by the union of a method's redaction regions, sampled at the
centres of a grid of up to 64 × 64 points over the box; a face counts as
redacted when at least --min-cover (0.8) of it is covered. The same rule
for every method. Regions: JSON lines from deface_regions.py /
facepipe_regions.py ("ellipse": the ellipse inscribed in the box;
"roundrect": the box with corners rounded by "radius").

Usage: coverage.py --labels LABELS.json [--min-cover 0.8] NAME=REGIONS.jsonl...
Prints a Markdown table and the faces each method left unredacted.
"""
import argparse
import json
import os
import sys


def inside(region, x, y):
    rx, ry, rw, rh = region["box"]
    if region["shape"] == "ellipse":
        cx, cy, ax, ay = rx + rw / 2, ry + rh / 2, rw / 2, rh / 2
        return ax > 0 and ay > 0 and ((x - cx) / ax) ** 2 + ((y - cy) / ay) ** 2 <= 1
    r = min(region.get("radius", 0), rw / 2, rh / 2)
    dx = max(rx + r - x, 0, x - (rx + rw - r))
    dy = max(ry + r - y, 0, y - (ry + rh - r))
    return x >= rx and x <= rx + rw and y >= ry and y <= ry + rh and dx * dx + dy * dy <= r * r


def cover(box, regions):
    x, y, w, h = box
    n = 64
    hits = 0
    for j in range(n):
        py = y + (j + 0.5) * h / n
        for i in range(n):
            px = x + (i + 0.5) * w / n
            if any(inside(region, px, py) for region in regions):
                hits += 1
    return hits / (n * n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", required=True)
    parser.add_argument("--min-cover", type=float, default=0.8)
    parser.add_argument("methods", nargs="+", help="NAME=REGIONS.jsonl")
    args = parser.parse_args()
    labels = json.load(open(args.labels))["images"]
    total = sum(len(image["faces"]) for image in labels.values())
    print(f"| method | faces left unredacted (of {total}) | share redacted | regions drawn | mean cover |")
    print("|---|---|---|---|---|")
    misses = {}
    for spec in args.methods:
        name, path = spec.split("=", 1)
        by_name = {}
        for line in open(path):
            entry = json.loads(line)
            by_name[os.path.basename(entry["file"])] = entry.get("regions", [])
        missed, covers, regions_drawn = [], [], sum(len(r) for r in by_name.values())
        for file, image in sorted(labels.items()):
            regions = by_name.get(file, [])
            for box in image["faces"]:
                share = cover(box, regions)
                covers.append(share)
                if share < args.min_cover:
                    missed.append((file, [round(v, 1) for v in box], round(share, 2)))
        misses[name] = missed
        print(f"| {name} | {len(missed)} | {1 - len(missed) / total:.3f} | {regions_drawn} | {sum(covers) / len(covers):.3f} |")
    for name, missed in misses.items():
        print(f"\n{name}: unredacted faces (file, box, cover)")
        for item in missed:
            print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
