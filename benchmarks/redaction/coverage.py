#!/usr/bin/env python3
"""Faces left unredacted: for every labelled face, the share of its box
covered by the union of a method's redaction regions, sampled at the
centres of a grid of up to 64 × 64 points over the box; a face counts as
redacted when at least --min-cover (0.8) of it is covered. The same rule
for every method. Regions: JSON lines from deface_regions.py /
facepipe_regions.py ("ellipse": the ellipse inscribed in the box;
"roundrect": the box with corners rounded by "radius").

--min-width W scores only the labelled faces at least W px wide (the crowd
set's faces from 16 px: `anonymize` searches from 16). Extra regions (what
a method blurs besides faces): regions whose box holds the centre of no
labelled face (of any width) and of no `ignore` region of the labels; their
area is summed over the images as a share of the images' pixels.

Usage: coverage.py --labels LABELS.json [--min-cover 0.8] [--min-width 0] NAME=REGIONS.jsonl...
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


def holds_centre(region, box):
    """Whether a region's box holds the centre of a labelled box."""
    rx, ry, rw, rh = region["box"]
    x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
    return rx <= x <= rx + rw and ry <= y <= ry + rh


def visible_area(region, image):
    """A region's box's area inside the image, in pixels."""
    rx, ry, rw, rh = region["box"]
    w = max(0.0, min(rx + rw, image["width"]) - max(rx, 0.0))
    h = max(0.0, min(ry + rh, image["height"]) - max(ry, 0.0))
    return w * h


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", required=True)
    parser.add_argument("--min-cover", type=float, default=0.8)
    parser.add_argument("--min-width", type=float, default=0)
    parser.add_argument("methods", nargs="+", help="NAME=REGIONS.jsonl")
    args = parser.parse_args()
    labels = json.load(open(args.labels))["images"]
    total = sum(1 for image in labels.values() for box in image["faces"] if box[2] >= args.min_width)
    pixels = sum(image["width"] * image["height"] for image in labels.values())
    print(f"| method | faces left unredacted (of {total}) | share redacted | regions drawn | mean cover "
          f"| extra regions | extra area |")
    print("|---|---|---|---|---|---|---|")
    misses = {}
    for spec in args.methods:
        name, path = spec.split("=", 1)
        by_name = {}
        for line in open(path):
            entry = json.loads(line)
            by_name[os.path.basename(entry["file"])] = entry.get("regions", [])
        missed, covers, regions_drawn = [], [], sum(len(r) for r in by_name.values())
        extra, extra_area = 0, 0.0
        for file, image in sorted(labels.items()):
            regions = by_name.get(file, [])
            for region in regions:
                if not any(holds_centre(region, box) for box in image["faces"] + image.get("ignore", [])):
                    extra += 1
                    extra_area += visible_area(region, image)
            for box in image["faces"]:
                if box[2] < args.min_width:
                    continue
                share = cover(box, regions)
                covers.append(share)
                if share < args.min_cover:
                    missed.append((file, [round(v, 1) for v in box], round(share, 2)))
        misses[name] = missed
        print(f"| {name} | {len(missed)} | {1 - len(missed) / total:.3f} | {regions_drawn} | {sum(covers) / len(covers):.3f} "
              f"| {extra} | {extra_area / pixels:.4%} |")
    for name, missed in misses.items():
        print(f"\n{name}: unredacted faces (file, box, cover)")
        for item in missed:
            print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
