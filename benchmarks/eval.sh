#!/usr/bin/env bash
# make eval: precision, recall and AP@0.5 of facepipe's named pipelines (the
# faces they keep), its three detector modes, YuNet (libfacedetection) and
# MediaPipe's own Python face detection (short and full range) on the
# labelled evaluation set (datasets/build-eval.py), printed side by side with
# each method's wall time, and written to datasets/build/eval/results.md.
#
# Every method sees the same upright images at its default threshold (0.5).
# facepipe runs with --min-face-size 0 (report every face, and let accurate
# mode tile as fine as the model allows), since MediaPipe has no size filter.
#
# Wall times: every method runs pinned to the same CPU set (EVAL_CPUS, default
# "0": one core; `facepipe detect` is single-threaded, MediaPipe's XNNPACK
# could otherwise use more cores).
#
# EVAL_FLOORS adds columns for `faces` at other sensitivity floors
# (`--min-face-size`), to show what a coarser floor gives up on this set;
# `FLOORS=... make bench-pipeline` measures what it saves in time.
#
# EVAL_SET=crowd scores the real-crowd set instead (datasets/build-crowd.py:
# whole crowd photos scaled so their faces are 16-64 px, in 2 and 12 MP
# frames; labels by eye in benchmarks/eval/crowd-boxes.json, with regions to
# ignore). `make eval-crowd` runs it.
#
# Environment: EVAL_SET (composite, the default, or crowd), EVAL_CPUS (default 0), EVAL_DIR (default datasets/build/eval, or datasets/build/crowd),
# EVAL_FLOORS (default none; for example "32px 48px"), MEDIAPIPE_VENV
# (default .venv-mediapipe, created from scripts/requirements-mediapipe.txt
# when missing), EVAL_SEED (default 2024; a different seed rebuilds the set).
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/venv.sh

EVAL_SET="${EVAL_SET:-composite}"
case "$EVAL_SET" in
    composite) BUILD_SCRIPT=datasets/build-eval.py BOXES=benchmarks/eval/source-boxes.json DEFAULT_DIR=datasets/build/eval DEFAULT_SEED=2024 ;;
    crowd) BUILD_SCRIPT=datasets/build-crowd.py BOXES=benchmarks/eval/crowd-boxes.json DEFAULT_DIR=datasets/build/crowd DEFAULT_SEED=2026 ;;
    *) echo "eval: EVAL_SET must be composite or crowd, got '$EVAL_SET'" >&2; exit 2 ;;
esac
EVAL_DIR="${EVAL_DIR:-$DEFAULT_DIR}"
SEED="${EVAL_SEED:-$DEFAULT_SEED}"
CPUS="${EVAL_CPUS:-0}"
read -r -a FLOORS <<< "${EVAL_FLOORS:-}"
PIN=()
command -v taskset > /dev/null && PIN=(taskset -c "$CPUS")
MP_VENV="${MEDIAPIPE_VENV:-.venv-mediapipe}"
PY=.venv/bin/python
[ -x "$PY" ] || { echo "eval: $PY missing; run 'make venv' first" >&2; exit 2; }
BIN="$(swift build -c release --show-bin-path)/facepipe"
[ -x "$BIN" ] || swift build -c release --product facepipe

# Rebuilt when missing, or when the seed or the scripts that make it changed.
STAMP="seed $SEED, scripts $(cat "$BUILD_SCRIPT" datasets/dataset_common.py "$BOXES" | sha256sum | cut -c1-16)"
if [ ! -f "$EVAL_DIR/labels.json" ] || [ "$(cat "$EVAL_DIR/.stamp" 2>/dev/null)" != "$STAMP" ]; then
    "$PY" "$BUILD_SCRIPT" --out "$EVAL_DIR" --seed "$SEED"
    echo "$STAMP" > "$EVAL_DIR/.stamp"
fi

ensure_venv "$MP_VENV" scripts/requirements-mediapipe.txt

mapfile -t FILES < <(find "$EVAL_DIR" -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.png' \) | LC_ALL=C sort)
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ ${#PIN[@]} -gt 0 ]; then where="CPU(s) $CPUS"; else where="all CPUs (no taskset)"; fi
echo "eval: ${#FILES[@]} images in $EVAL_DIR; every method runs on $where"

# run NAME COMMAND...: detections to $WORK/NAME.jsonl, wall seconds to $WORK/NAME.seconds.
# Exit status 1 means some files failed; score.py reports those, so it is not fatal.
run() {
    local name="$1"; shift
    local start end status=0
    start=$(date +%s.%N)
    "${PIN[@]}" "$@" "${FILES[@]}" > "$WORK/$name.jsonl" 2> "$WORK/$name.err" || status=$?
    end=$(date +%s.%N)
    if [ "$status" -gt 1 ]; then
        echo "eval: $name failed (exit $status):" >&2; tail -20 "$WORK/$name.err" >&2; exit "$status"
    fi
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$end" > "$WORK/$name.seconds"
    echo "  $name: $(cat "$WORK/$name.seconds") s"
}

for mode in fast accurate pyramid sparse yunet; do
    run "facepipe-$mode" "$BIN" detect --mode "$mode" --min-score 0.5 --min-confidence 0.5 --min-face-size 0 --workers 1
done
run mediapipe-short "$MP_VENV/bin/python" benchmarks/eval/mediapipe_detect.py --model 0 --min-score 0.5
run mediapipe-full "$MP_VENV/bin/python" benchmarks/eval/mediapipe_detect.py --model 1 --min-score 0.5
# YuNet (libfacedetection) at full resolution, its usual threshold 0.3.
OMP_NUM_THREADS=1 run yunet "$PY" benchmarks/eval/yunet_detect.py --min-score 0.3

# The named pipelines as users run them (kept faces: the pipeline's own
# confidence filter and Face Mesh's presence check), one worker. The
# "no presence check" rows count faces the mesh rejected as kept, to show
# what that check removes.
tar cf "$WORK/eval.tar" -C "$EVAL_DIR" $(for f in "${FILES[@]}"; do basename "$f"; done)
# pipeline NAME [FLOOR]: FLOOR overrides the pipeline's --min-face-size (results as NAME-floor-FLOOR).
pipeline() {
    local name="${1}${2:+-floor-$2}" start end
    start=$(date +%s.%N)
    "${PIN[@]}" "$BIN" run "$1" "$WORK/eval.tar" --out "$WORK/run-$name" --workers 1 --quiet ${2:+--min-face-size "$2"} || [ $? -eq 1 ]
    end=$(date +%s.%N)
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$end" > "$WORK/pipeline-$name.seconds"
    python3 benchmarks/eval/manifest_faces.py "$WORK/run-$name/manifest.csv" "$EVAL_DIR" > "$WORK/pipeline-$name.jsonl"
    python3 benchmarks/eval/manifest_faces.py "$WORK/run-$name/manifest.csv" "$EVAL_DIR" --also-rejected "landmarks:" \
        > "$WORK/pipeline-$name-nopresence.jsonl"
    cp "$WORK/pipeline-$name.seconds" "$WORK/pipeline-$name-nopresence.seconds"
    echo "  pipeline $name: $(cat "$WORK/pipeline-$name.seconds") s"
}
pipeline faces
pipeline training-annotations
for floor in "${FLOORS[@]}"; do pipeline faces "$floor"; done

specs=()
for name in pipeline-faces pipeline-faces-nopresence pipeline-training-annotations pipeline-training-annotations-nopresence \
            $(for floor in "${FLOORS[@]}"; do echo "pipeline-faces-floor-$floor"; done) \
            facepipe-fast facepipe-accurate facepipe-pyramid facepipe-sparse facepipe-yunet yunet mediapipe-short mediapipe-full; do
    label="${name/facepipe-/facepipe detect }"; label="${label/mediapipe-/MediaPipe }"; label="${label/yunet/YuNet}"
    label="${label/pipeline-/facepipe run }"; label="${label/-nopresence/ (no presence check)}"
    label="${label/-floor-/ --min-face-size }"
    specs+=("$label=$WORK/$name.jsonl@$(cat "$WORK/$name.seconds")")
done
python3 benchmarks/eval/score.py --self-test > /dev/null
echo
python3 benchmarks/eval/score.py --labels "$EVAL_DIR/labels.json" --out "$EVAL_DIR/results.md" "${specs[@]}"
mkdir -p "$EVAL_DIR/detections"
cp "$WORK"/*.jsonl "$EVAL_DIR/detections/"
echo
echo "Table, missed faces and errors: $EVAL_DIR/results.md; raw detections: $EVAL_DIR/detections/"
