#!/usr/bin/env bash
# make bench-redaction: facepipe's `anonymize` pipeline against deface 1.5
# (CenterFace on ONNX Runtime, what users pick for face blurring), in one run:
#
# 1. Faces left unredacted on make eval's labelled set (datasets/build/eval,
#    labels.json): a face counts as redacted when at least 80 % of its
#    labelled box lies inside the method's redaction regions (coverage.py,
#    the same rule for both). facepipe's regions come from its JSON; deface's
#    from its own functions at its command line's defaults (threshold 0.2,
#    --mask-scale 1.3, ellipse), on the upright image.
# 2. Images/s on the bench archive (datasets/build/bench.tar): `facepipe run
#    anonymize --workers 2` on the archive against two deface processes, each
#    given half of the extracted files (its command line, default options:
#    decode, detect, blur, encode), both pinned to the same CPUs.
#
# Environment: BENCH_CPUS (default 0,1), DEFACE_VENV (default .venv-deface,
# created from benchmarks/requirements-deface.txt when missing), EVAL_DIR
# (default datasets/build/eval; built as make eval builds it when missing),
# CROWD_DIR (default datasets/build/crowd: make eval-crowd's set, scored for
# facepipe when built, faces from 16 px wide).
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/venv.sh

EVAL_DIR="${EVAL_DIR:-datasets/build/eval}"
BENCH=datasets/build/bench.tar
CPUS="${BENCH_CPUS:-0,1}"
PIN=()
command -v taskset > /dev/null && PIN=(taskset -c "$CPUS")
DEFACE_VENV="${DEFACE_VENV:-.venv-deface}"
BIN="$(swift build -c release --show-bin-path)/facepipe"
[ -x "$BIN" ] || swift build -c release --product facepipe
[ -f "$BENCH" ] || { echo "bench-redaction: $BENCH missing; run 'make bench-pipeline' once to build it" >&2; exit 2; }
if [ ! -f "$EVAL_DIR/labels.json" ]; then
    [ -x .venv/bin/python ] || { echo "bench-redaction: .venv missing; run 'make venv' first" >&2; exit 2; }
    .venv/bin/python datasets/build-eval.py --out "$EVAL_DIR" --seed "${EVAL_SEED:-2024}"
fi
ensure_venv "$DEFACE_VENV" benchmarks/requirements-deface.txt

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }
echo "bench-redaction: $(nproc) CPUs, pinned to $CPUS; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Coverage on the labelled set.
mapfile -t FILES < <(find "$EVAL_DIR" -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.png' \) | LC_ALL=C sort)
tar cf "$WORK/eval.tar" -C "$EVAL_DIR" $(for f in "${FILES[@]}"; do basename "$f"; done)
"${PIN[@]}" "$BIN" run anonymize "$WORK/eval.tar" --out "$WORK/eval-facepipe" --workers 2 --quiet || [ $? -eq 1 ]
python3 benchmarks/redaction/facepipe_regions.py "$WORK/eval-facepipe" "$EVAL_DIR" > "$WORK/facepipe.jsonl"
"${PIN[@]}" "$DEFACE_VENV/bin/python" benchmarks/redaction/deface_regions.py "${FILES[@]}" > "$WORK/deface.jsonl"
echo
echo "Faces left unredacted, ${#FILES[@]} images of $EVAL_DIR (redacted: ≥ 80 % of the labelled box covered):"
python3 benchmarks/redaction/coverage.py --labels "$EVAL_DIR/labels.json" \
    "facepipe anonymize=$WORK/facepipe.jsonl" "deface 1.5 (thresh 0.2, mask-scale 1.3)=$WORK/deface.jsonl"

# 1b. The same on make eval-crowd's real crowds (CROWD_DIR, when built): the faces from 16 px wide, what anonymize searches for.
CROWD_DIR="${CROWD_DIR:-datasets/build/crowd}"
if [ -f "$CROWD_DIR/labels.json" ]; then
    mapfile -t CROWD < <(find "$CROWD_DIR" -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.png' \) | LC_ALL=C sort)
    tar cf "$WORK/crowd.tar" -C "$CROWD_DIR" $(for f in "${CROWD[@]}"; do basename "$f"; done)
    "${PIN[@]}" "$BIN" run anonymize "$WORK/crowd.tar" --out "$WORK/crowd-facepipe" --workers 2 --quiet || [ $? -eq 1 ]
    python3 benchmarks/redaction/facepipe_regions.py "$WORK/crowd-facepipe" "$CROWD_DIR" > "$WORK/crowd-facepipe.jsonl"
    echo
    echo "Faces from 16 px left unredacted, ${#CROWD[@]} images of $CROWD_DIR (facepipe only):"
    python3 benchmarks/redaction/coverage.py --labels "$CROWD_DIR/labels.json" --min-width 16 \
        "facepipe anonymize=$WORK/crowd-facepipe.jsonl"
fi

# 2. Throughput on the bench archive.
mkdir -p "$WORK/bench"
tar xf "$BENCH" -C "$WORK/bench"
mapfile -t BENCH_FILES < <(find "$WORK/bench" -type f | LC_ALL=C sort)
COUNT=${#BENCH_FILES[@]}
HALF=$(( (COUNT + 1) / 2 ))
start=$(date +%s.%N)
"${PIN[@]}" "$BIN" run anonymize "$BENCH" --out "$WORK/bench-facepipe" --workers 2 --quiet || [ $? -eq 1 ]
end=$(date +%s.%N)
FP=$(seconds "$start" "$end")
# deface writes NAME_anonymized.EXT next to each input.
start=$(date +%s.%N)
"${PIN[@]}" "$DEFACE_VENV/bin/deface" "${BENCH_FILES[@]:0:$HALF}" > "$WORK/deface-1.log" 2>&1 &
first=$!
"${PIN[@]}" "$DEFACE_VENV/bin/deface" "${BENCH_FILES[@]:$HALF}" > "$WORK/deface-2.log" 2>&1 &
second=$!
wait "$first" "$second"
end=$(date +%s.%N)
DF=$(seconds "$start" "$end")
WRITTEN=$(find "$WORK/bench" -name '*_anonymized*' | wc -l)
echo
echo "Throughput, $COUNT images of $BENCH, CPUs $CPUS (load after: $(cut -d' ' -f1-3 /proc/loadavg)):"
python3 - "$COUNT" "$FP" "$DF" "$WRITTEN" <<'PY'
import sys
count, fp, df, written = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
print("| method | seconds | images/s |")
print("|---|---|---|")
print(f"| facepipe run anonymize --workers 2 | {fp:.1f} | {count / fp:.2f} |")
print(f"| deface 1.5, 2 processes ({written} images written) | {df:.1f} | {count / df:.2f} |")
print(f"\nfacepipe / deface: {df / fp:.2f}x")
PY
