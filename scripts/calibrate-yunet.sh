#!/usr/bin/env bash
# Calibrates YuNet-s's static int8 grids (DetectorArithmetic.staticInt8;
# docs/YUNET.md "Static int8") and rewrites the table in
# Sources/FaceAnalysis/YuNetGrids.swift between its markers.
#
# 1. Builds the calibration archive with datasets/build-bench.py under its
#    own seed (COUNT pictures, default 200; seed 2027): pictures the project
#    builds from the same registry photos as the bench archive, but not the
#    ones `make bench-pipeline` times (seed 400) nor the labelled sets
#    `make eval` and `make eval-crowd` score.
# 2. Runs `facepipe-probes yunet-grids` on it: YuNet-s's search at the
#    20-px floor in `int8` arithmetic, the largest magnitude of every tensor
#    the grids name.
#
# Environment: COUNT (default 200), SEED (default 2027).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${COUNT:-200}"
SEED="${SEED:-2027}"
ARCHIVE="datasets/build/calibration-$SEED-$COUNT.tar"
[ -f "$ARCHIVE" ] || {
    make -s sample >/dev/null   # the pinned Pillow venv the dataset builders use
    .venv-data/bin/python datasets/build-bench.py --no-fetch --seed "$SEED" --count "$COUNT" --out "$ARCHIVE" >/dev/null
}
export FACEPIPE_BENCHMARKS=1
swift build -c release --product facepipe-probes > /dev/null
PROBES="$(swift build -c release --show-bin-path)/facepipe-probes"
TABLE="$(mktemp)"
trap 'rm -f "$TABLE"' EXIT
"$PROBES" yunet-grids "$ARCHIVE" > "$TABLE"
FILE=Sources/FaceAnalysis/YuNetGrids.swift
python3 - "$FILE" "$TABLE" <<'PYTHON'
import sys
path, table = sys.argv[1], open(sys.argv[2]).read()
text = open(path).read()
begin = text.index("// BEGIN CALIBRATION")
begin = text.index("\n", begin) + 1
end = text.index("    // END CALIBRATION")
open(path, "w").write(text[:begin] + table + text[end:])
PYTHON
echo "calibrate-yunet: $(grep -c '^        ("' "$FILE") tensors from $ARCHIVE written to $FILE"
