#!/usr/bin/env bash
# make eval-shifts: a pipeline's precision, recall and AP on the labelled set
# as built and on copies of it moved by a few pixels, side by side, to show
# how much of a measured difference the detectors' sampling grids alone can
# make (YuNet-s scored one 39-px face 0.32 to 0.67 as its picture moved a
# pixel at a time; docs/BENCHMARKS.md, 2026-11-27, 9e9ccc4).
#
# Each copy is the set, upright and lossless (PNG), with the first DX columns
# and DY rows cut off and, for a placement DX,DY,ANGLE, the whole picture
# turned by ANGLE degrees (benchmarks/eval/shift.py); the pipeline runs on
# it, and its kept faces are moved back and scored against the original
# labels by score.py. "0,0" is the set itself through the same PNG copies
# (the same pixels as the JPEG files decoded). Writes the table to
# EVAL_DIR/shifts.md (EVAL_DIR/turned.md for `make eval-turned`). Times are
# not measured here.
#
# `make eval-turned` runs it with SHIFTS="0,0 0,0,-30 0,0,-20 0,0,-10
# 0,0,10 0,0,20 0,0,30" and LOST_FROM=40: the table's last row counts, per
# placement, the faces of at least 40 px found upright and missed there.
#
# Environment: EVAL_SET (composite, the default, or crowd: `make
# eval-shifts EVAL_SET=crowd`), EVAL_DIR (default datasets/build/eval or
# datasets/build/crowd; built by `make eval` / `make eval-crowd`), SHIFTS
# (default "0,0 1,0 0,1 1,1 2,3 5,9"; each DX,DY or DX,DY,ANGLE), PIPELINE
# (default faces), WORKERS (default: all cores), LOST_FROM (count the faces
# of at least this many px that the first placement found and each other one
# missed), OUT_NAME (default shifts.md), BIN (default: this checkout's
# release build of facepipe, built when missing), RUN_ARGS (more arguments
# of every `facepipe run`, e.g. "--set detect-faces.canvas-arithmetic=static-int8").
set -euo pipefail
cd "$(dirname "$0")/.."

EVAL_SET="${EVAL_SET:-composite}"
case "$EVAL_SET" in
    composite) DEFAULT_DIR=datasets/build/eval; BUILD="make eval" ;;
    crowd) DEFAULT_DIR=datasets/build/crowd; BUILD="make eval-crowd" ;;
    *) echo "eval-shifts: EVAL_SET must be composite or crowd, got '$EVAL_SET'" >&2; exit 2 ;;
esac
EVAL_DIR="${EVAL_DIR:-$DEFAULT_DIR}"
read -r -a SHIFT_LIST <<< "${SHIFTS:-0,0 1,0 0,1 1,1 2,3 5,9}"
PIPELINE="${PIPELINE:-faces}"
read -r -a RUN_ARGS <<< "${RUN_ARGS:-}"
WORKERS="${WORKERS:-$(nproc)}"
PY=.venv/bin/python
[ -x "$PY" ] || { echo "eval-shifts: $PY missing; run 'make venv' first" >&2; exit 2; }
[ -f "$EVAL_DIR/labels.json" ] || { echo "eval-shifts: no $EVAL_DIR/labels.json; run '$BUILD' first" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
    BIN="$(swift build -c release --show-bin-path)/facepipe"
    [ -x "$BIN" ] || swift build -c release --product facepipe
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUT_NAME="${OUT_NAME:-shifts.md}"
specs=()
lost=()
for shift in "${SHIFT_LIST[@]}"; do
    [[ "$shift" =~ ^[0-9]+,[0-9]+(,-?[0-9]+)?$ ]] || { echo "eval-shifts: a placement is DX,DY or DX,DY,ANGLE (pixels, degrees), got '$shift'" >&2; exit 2; }
    IFS=, read -r dx dy angle <<< "$shift"
    angle="${angle:-0}"
    key="$dx-$dy-$angle"
    copies="$WORK/set-$key"
    "$PY" benchmarks/eval/shift.py copy "$EVAL_DIR" "$copies" "$dx" "$dy" "$angle"
    "$BIN" run "$PIPELINE" "$copies" --out "$WORK/run-$key" --workers "$WORKERS" --quiet ${RUN_ARGS[@]+"${RUN_ARGS[@]}"} || [ $? -eq 1 ]
    python3 benchmarks/eval/manifest_faces.py "$WORK/run-$key/manifest.csv" "$copies" \
        | python3 benchmarks/eval/shift.py back "$copies" "$dx" "$dy" "$angle" > "$WORK/shift-$key.jsonl"
    rm -rf "$copies" "$WORK/run-$key"
    name="$PIPELINE, moved ($dx, $dy)"
    [ "$angle" = 0 ] || name="$PIPELINE, moved ($dx, $dy), turned $angle°"
    echo "  $name: done"
    specs+=("$name=$WORK/shift-$key.jsonl")
    [ -n "${LOST_FROM:-}" ] && [ "${#lost[@]}" -eq 0 ] && lost=(--lost-against "$name" --lost-from "$LOST_FROM")
done
echo
python3 benchmarks/eval/score.py --labels "$EVAL_DIR/labels.json" --out "$EVAL_DIR/$OUT_NAME" "${lost[@]}" "${specs[@]}"
echo
echo "Table and missed faces per placement: $EVAL_DIR/$OUT_NAME"
