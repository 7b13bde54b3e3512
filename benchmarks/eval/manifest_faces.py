#!/usr/bin/env python3
"""Turns a `facepipe run` manifest into the JSON lines `score.py` reads: one
line per image with the faces the pipeline kept (status ok), in upright
pixels. With --also-rejected REASON-PREFIX, faces rejected for a reason
starting with that prefix count as kept too (to measure what a rejection
rule removes).

Usage: manifest_faces.py MANIFEST FOLDER [--also-rejected PREFIX]
(FOLDER: the eval images' folder; manifest entries are file names in it.)
"""
import argparse
import csv
import json
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("folder")
    parser.add_argument("--also-rejected", default=None)
    args = parser.parse_args()
    images = {}
    with open(args.manifest, newline="") as handle:
        for row in csv.DictReader(handle):
            path = f"{args.folder}/{row['entry']}"
            if row["status"] == "error":
                images[path] = {"file": path, "error": row["error"]}
                continue
            line = images.setdefault(path, {"file": path, "width": int(row["width"]), "height": int(row["height"]), "faces": []})
            kept = row["status"] == "ok" or (args.also_rejected is not None and row["status"] == "rejected"
                                             and row["rejection"].startswith(args.also_rejected))
            if kept and row["face"] != "":
                line["faces"].append({"x": float(row["x"]), "y": float(row["y"]), "w": float(row["w"]),
                                      "h": float(row["h"]), "score": float(row["confidence"])})
    for line in images.values():
        print(json.dumps(line, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
