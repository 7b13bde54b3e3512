#!/usr/bin/env python3
"""How many of a labelled set's small faces (20-64 px wide by default) a
second detection phase could add at best, placement by placement (issue 53's
placement target).

For each `faces` run on a moved copy of the set (`eval-shifts.sh` keeps them
with KEEP=DIR), every 20-64 px label the run misses (IoU >= 0.5) is looked up
in the detections of other passes over the set as built: YuNet-s alone at
other grid phases (`PHASE` files: the set with DX columns and DY rows cut,
moved back), YuNet-s on a 2x copy, BlazeFace's pyramid, and the `yuface`
wheel's candidates from a low floor (does the first pass leave anything a
second phase could start from?). A missed face counts as reachable when a
YuNet-s pass finds it from 0.6 (what a face YuNet alone finds must score) or
the pyramid from 0.7 (BlazeFace alone's bar). Standard library only.

Usage: placement_ceiling.py LABELS.json --runs RUN.jsonl... --phases P.jsonl...
       --x2 X2.jsonl --pyramid PYR.jsonl --candidates YUFACE.jsonl
       [--widths 20 64]   (label widths counted, from and below; `--widths 20 inf`
                           for the crowd set's "recall from 20 px")
"""
import argparse
import json
import pathlib


def load(path):
    found = {}
    for text in pathlib.Path(path).read_text().splitlines():
        line = json.loads(text)
        if "error" not in line:
            found[pathlib.Path(line["file"]).name] = [(f["x"], f["y"], f["w"], f["h"], f.get("score", 1)) for f in line["faces"]]
    return found


def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0


def best(passes, name, box, overlap=0.5):
    return max([d[4] for found in passes for d in found.get(name, []) if iou(box, d) >= overlap] + [0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels")
    parser.add_argument("--runs", nargs="+", required=True)
    parser.add_argument("--phases", nargs="+", default=[])
    parser.add_argument("--x2", default=None)
    parser.add_argument("--pyramid", default=None)
    parser.add_argument("--candidates", default=None)
    parser.add_argument("--widths", nargs=2, type=float, default=[20, 64])
    args = parser.parse_args()
    labels = json.loads(pathlib.Path(args.labels).read_text())["images"]
    phases = [load(p) for p in args.phases]
    x2 = [load(args.x2)] if args.x2 else []
    pyramid = [load(args.pyramid)] if args.pyramid else []
    candidates = [load(args.candidates)] if args.candidates else []
    low, high = args.widths
    small = [(name, box) for name, image in labels.items() for box in image["faces"] if low <= box[2] < high]
    print(f"{len(small)} labelled faces {low:g} to {high:g} px wide")
    for run_path in args.runs:
        run = load(run_path)
        missed = [(n, b) for n, b in small if not any(iou(b, d) >= 0.5 for d in run.get(n, []))]
        reachable = 0
        rows = []
        for name, box in missed:
            phase, double, pyr = best(phases, name, box), best(x2, name, box), best(pyramid, name, box)
            low = best(candidates, name, box, overlap=0.3)
            reachable += max(phase, double) >= 0.6 or pyr >= 0.7
            rows.append(f"    {name} {[round(v) for v in box]}: YuNet-s other phases {phase:.2f}, 2x {double:.2f}, "
                        f"BlazeFace pyramid {pyr:.2f}, first-pass candidate {low:.2f}")
        found = len(small) - len(missed)
        print(f"{pathlib.Path(run_path).name}: found {found}, at best {found + reachable} with every pass above")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
