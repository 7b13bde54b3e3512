#!/usr/bin/env bash
# What static int8 activations would cost YuNet-s in accuracy, measured
# before building them (issue 53; docs/BENCHMARKS.md, "Static int8
# activations simulated"). A measurement, not engine code: the simulation
# lives in benchmarks/static-int8/simulation.patch, applied to a scratch
# worktree of HEAD, never to this checkout.
#
# 1. Builds the patched facepipe in a worktree under WORK_ROOT (its build
#    folder is .build-static-int8 in this checkout).
# 2. Calibrates: `run faces` on the first COUNT pictures of the bench
#    archive with FP_QSIM=calib, which records each YuNet-s 1×1 layer's
#    input and output values.
# 3. benchmarks/static-int8/table.py turns the histograms into a table of
#    per-tensor grids (the largest value seen, PERCENTILE=1.0; 0…255 for a
#    tensor with no negative value, −127…127 otherwise), without the heads'
#    outputs and, for the second table, with them.
# 4. Runs benchmarks/eval-shifts.sh (composite set, then crowd set) with the
#    patched binary four ways: unpatched arithmetic (no FP_QSIM: the same
#    outputs as HEAD), the table without the heads, the table with them, and
#    the table without the heads plus each depthwise layer's taps rounded to
#    8 bits per channel (FP_QSIM_DW). Two more ways when VARIANTS names
#    them: dw-weights (the taps rounded, activations as today) and
#    grids-dw-weights-mse (the taps on each channel's scale of least
#    squared error). The tables go to OUT (default /tmp/static-int8).
#
# Environment: COUNT (default 60), PERCENTILE (default 1.0), WORKERS
# (default 2), ARCHIVE (default datasets/build/bench.tar), SETS (default
# "composite crowd"), VARIANTS (default "unpatched grids grids-with-heads
# grids-dw-weights"), WORK_ROOT (default a new temporary folder), OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${COUNT:-60}"
PERCENTILE="${PERCENTILE:-1.0}"
WORKERS="${WORKERS:-2}"
ARCHIVE="${ARCHIVE:-datasets/build/bench.tar}"
read -r -a SETS <<< "${SETS:-composite crowd}"
read -r -a VARIANTS <<< "${VARIANTS:-unpatched grids grids-with-heads grids-dw-weights}"
OUT="${OUT:-/tmp/static-int8}"
PY=.venv/bin/python
[ -x "$PY" ] || { echo "static-int8: $PY missing; run 'make venv' first" >&2; exit 2; }
[ -f "$ARCHIVE" ] || { echo "static-int8: no $ARCHIVE; run 'make bench-pipeline' once or datasets/build-bench.py" >&2; exit 2; }

ROOT="$(pwd)"
WORK_ROOT="${WORK_ROOT:-$(mktemp -d)}"
TREE="$WORK_ROOT/tree"
cleanup() { git -C "$ROOT" worktree remove --force "$TREE" 2>/dev/null || true; }
trap cleanup EXIT
git worktree add --detach "$TREE" HEAD > /dev/null
git -C "$TREE" apply "$ROOT/benchmarks/static-int8/simulation.patch"
# The worktree reads the models and the archives of this checkout.
ln -s "$ROOT/models" "$TREE/models"
# Its build folder stays beside this checkout's, so a second run builds only what changed.
SCRATCH="$ROOT/.build-static-int8"
(cd "$TREE" && swift build -c release --product facepipe --scratch-path "$SCRATCH" > /dev/null)
BIN="$(cd "$TREE" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/facepipe"
mkdir -p "$OUT"

# The first COUNT pictures of the archive, in its order.
"$PY" - "$ARCHIVE" "$COUNT" "$WORK_ROOT/calibration.tar" <<'PYTHON'
import sys, tarfile
source, count, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with tarfile.open(source) as tar, tarfile.open(target, "w") as out:
    taken = 0
    for member in tar:
        if taken == count:
            break
        if member.isfile():
            out.addfile(member, tar.extractfile(member))
            taken += 1
PYTHON
rm -f "$WORK_ROOT"/histograms.*
FP_QSIM="calib:$WORK_ROOT/histograms" "$BIN" run faces "$WORK_ROOT/calibration.tar" --out "$WORK_ROOT/calibration-run" \
    --workers "$WORKERS" --quiet || [ $? -eq 1 ]
HISTOGRAMS="$(ls "$WORK_ROOT"/histograms.*)"
"$PY" benchmarks/static-int8/table.py "$HISTOGRAMS" "$OUT/grids.txt" --percentile "$PERCENTILE" | tee "$OUT/clips.txt"
"$PY" benchmarks/static-int8/table.py "$HISTOGRAMS" "$OUT/grids-with-heads.txt" --percentile "$PERCENTILE" --keep-heads > /dev/null

for set in "${SETS[@]}"; do
    for variant in "${VARIANTS[@]}"; do
        echo "== $set, $variant"
        case "$variant" in
            unpatched) simulation=(env -u FP_QSIM -u FP_QSIM_DW) ;;
            grids) simulation=(env -u FP_QSIM_DW FP_QSIM="apply:$OUT/grids.txt") ;;
            grids-with-heads) simulation=(env -u FP_QSIM_DW FP_QSIM="apply:$OUT/grids-with-heads.txt") ;;
            grids-dw-weights) simulation=(env FP_QSIM_DW=1 FP_QSIM="apply:$OUT/grids.txt") ;;
            grids-dw-weights-mse) simulation=(env FP_QSIM_DW=mse FP_QSIM="apply:$OUT/grids.txt") ;;
            dw-weights) simulation=(env -u FP_QSIM FP_QSIM_DW=1) ;;
            *) echo "static-int8: unknown variant '$variant'" >&2; exit 2 ;;
        esac
        "${simulation[@]}" EVAL_SET="$set" BIN="$BIN" WORKERS="$WORKERS" OUT_NAME="static-int8-$variant.md" \
            benchmarks/eval-shifts.sh > "$OUT/$set-$variant.log" 2>&1
        grep -E '^\| (detections|true positives|precision  |AP@0.5|recall, faces >= 20 px|recall, face 20–32|recall, face 32–64)' \
            "$OUT/$set-$variant.log" | tee "$OUT/$set-$variant.md"
    done
done
