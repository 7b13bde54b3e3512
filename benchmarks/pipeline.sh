#!/usr/bin/env bash
# make bench-pipeline: facepipe's `faces` against MediaPipe's Python face
# solution doing the same work (decode + EXIF, detection, mesh + iris,
# drawing, PNG, CSV) on the same archive and the same cores, in one run, plus
# the decode + PNG-encode floor (facepipe's `upright-png` pipeline).
#
# Environment: WORKERS (default 2), ARCHIVE (default datasets/build/bench.tar,
# built by datasets/build-bench.py, or benchmarks/heavy_archive.py when that
# script is absent), MEDIAPIPE_VENV (default .venv-mediapipe).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-deps.sh time   # GNU time for peak RSS

WORKERS="${WORKERS:-2}"
ARCHIVE="${ARCHIVE:-datasets/build/bench.tar}"
VENV="${MEDIAPIPE_VENV:-.venv-mediapipe}"
BIN="$(swift build -c release --show-bin-path)/facepipe"
[ -x "$BIN" ] || swift build -c release --product facepipe

mkdir -p "$(dirname "$ARCHIVE")"
if [ ! -f "$ARCHIVE" ]; then
    if [ -f datasets/build-bench.py ]; then
        make -s sample >/dev/null   # the small pinned Pillow venv the dataset builders use
        .venv-data/bin/python datasets/build-bench.py --no-fetch --out "$ARCHIVE" --count "${COUNT:-400}"
    else
        python3 benchmarks/heavy_archive.py "$ARCHIVE" --count 400 --width 1600 --height 1200
    fi
fi

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -r scripts/requirements-mediapipe.txt
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# measure NAME COMMAND...: wall time and peak RSS (largest single process) via GNU time.
measure() {
    local name="$1"; shift
    /usr/bin/time -v -o "$WORK/$name.time" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" || {
        local status=$?
        # facepipe exits 1 when some entries failed; that is a result, not a benchmark failure.
        [ "$status" -eq 1 ] || { cat "$WORK/$name.err" >&2; exit "$status"; }
    }
}
rss_mb() { awk -F: '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$WORK/$1.time"; }
wall_s() {
    awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.3f", s}' "$WORK/$1.time"
}
facepipe_counts() {  # images, megapixels and faces from run.json
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["entries"], s["megapixels"], s["faces"])' "$1/run.json"
}

echo "archive: $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1)), workers: $WORKERS, cores: $(nproc)"
measure floor "$BIN" run upright-png "$ARCHIVE" --out "$WORK/floor" --workers "$WORKERS" --quiet
measure facepipe "$BIN" run faces "$ARCHIVE" --out "$WORK/facepipe" --workers "$WORKERS" --quiet
measure wholeframe "$BIN" run whole-frame "$ARCHIVE" --out "$WORK/wholeframe" --workers "$WORKERS" --quiet
measure mediapipe taskset -c "0-$((WORKERS - 1))" "$VENV/bin/python" benchmarks/mediapipe_baseline.py "$ARCHIVE" \
    --out "$WORK/mediapipe" --workers "$WORKERS"

failed_everything=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(int(s["entries"] > 0 and s["failedEntries"] == s["entries"]))' "$WORK/facepipe/run.json")
if [ "$failed_everything" = 1 ]; then
    echo "facepipe faces failed on every entry; first error:" >&2
    sed -n 2p "$WORK/facepipe/manifest.csv" >&2
    exit 1
fi

read -r floor_images floor_mp floor_faces < <(facepipe_counts "$WORK/floor")
read -r fp_images fp_mp fp_faces < <(facepipe_counts "$WORK/facepipe")
read -r wf_images wf_mp wf_faces < <(facepipe_counts "$WORK/wholeframe")
read -r mp_images mp_mp mp_faces < <(python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); print(d["images"], d["mp_per_s"]*d["seconds"], d["faces"])' "$WORK/mediapipe.out")

python3 - "$floor_images" "$floor_mp" "$(wall_s floor)" "$(rss_mb floor)" "-" \
          "$fp_images" "$fp_mp" "$(wall_s facepipe)" "$(rss_mb facepipe)" "$fp_faces" \
          "$wf_images" "$wf_mp" "$(wall_s wholeframe)" "$(rss_mb wholeframe)" "$wf_faces" \
          "$mp_images" "$mp_mp" "$(wall_s mediapipe)" "$(rss_mb mediapipe)" "$mp_faces" <<'PY'
import sys
v = sys.argv[1:]
rows = [("decode+PNG floor (facepipe upright-png)", *v[0:5]), ("facepipe faces", *v[5:10]),
        ("facepipe whole-frame (MediaPipe's work)", *v[10:15]), ("MediaPipe Python (0.10.14)", *v[15:20])]
print(f"{'':42} {'images':>7} {'seconds':>8} {'img/s':>7} {'MP/s':>7} {'peak RSS MB':>12} {'faces':>6}")
rates = {}
for name, images, mp, seconds, rss, faces in rows:
    images, mp, seconds = int(images), float(mp), float(seconds)
    rates[name] = images / seconds
    print(f"{name:42} {images:7d} {seconds:8.2f} {images / seconds:7.2f} {mp / seconds:7.2f} {rss:>12} {faces:>6}")
fp, base = rates["facepipe faces"], rates["MediaPipe Python (0.10.14)"]
print(f"facepipe faces / MediaPipe throughput: {fp / base:.2f}x   (facepipe at {fp / rates[rows[0][0]] * 100:.0f}% of its I/O floor)")
print(f"facepipe whole-frame / MediaPipe throughput: {rates[rows[2][0]] / base:.2f}x   (same detector, same frame, same per-face work)")
print("peak RSS: largest single process (MediaPipe uses one process per worker)")
print("faces: facepipe counts every detection (kept and rejected); MediaPipe counts its detections (full range, whole frame, score > 0.5)")
PY
