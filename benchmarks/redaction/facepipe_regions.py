#!/usr/bin/env python3
"""The regions `facepipe run anonymize` redacted, from its per-image JSON:
each face's `redaction_px` rectangle, whose corners `Redact` rounds with
radius feather/2 (feather = 0.2 × the face box width, the default). One
JSON line per image in the format deface_regions.py writes, "shape":
"roundrect" with "radius".

Usage: facepipe_regions.py RUN_DIR FOLDER   (FOLDER: the eval images' folder)
"""
import csv
import json
import os
import sys

FEATHER = 0.2


def main() -> int:
    run, folder = sys.argv[1], sys.argv[2]
    seen = {}
    with open(os.path.join(run, "manifest.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            path = f"{folder}/{os.path.basename(row['entry'])}"
            if path in seen:
                continue
            if row["status"] == "error":
                seen[path] = {"file": path, "error": row["error"]}
                continue
            regions = []
            if row["faces_json"]:
                with open(os.path.join(run, row["faces_json"])) as document:
                    for face in json.load(document)["faces"]:
                        regions.append({"shape": "roundrect", "box": face["redaction_px"],
                                        "radius": FEATHER * face["box_px"][2] / 2})
            seen[path] = {"file": path, "regions": regions}
    for line in seen.values():
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
