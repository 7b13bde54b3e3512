#!/usr/bin/env bash
# make bench-pipeline: facepipe's `faces` (every face from 20 px) against
# MediaPipe's Python face solution doing the same work (decode + EXIF,
# detection, mesh + iris, drawing, PNG, CSV) and against YuNet (libfacedetection,
# the strongest small-face CPU detector; detection only, full resolution) on
# the same archive and the same cores, in one run, plus the decode +
# PNG-encode floor (facepipe's `upright-png` pipeline).
#
# FLOORS (for example "40px 0.05") adds `faces` at those sensitivity floors
# (`--min-face-size`) to every round, each with its ratio to the round's
# MediaPipe run: what a coarser floor buys in speed (`make eval` with
# EVAL_FLOORS shows what it costs in recall).
#
# On a CPU with AVX-512, every round also runs `faces` on the AVX2 kernels
# (`FACEPIPE_KERNELS=8`, the same bytes): what an AVX2-only CPU of the same
# clock gets, against the same YuNet run (libfacedetection in the yuface
# wheel is compiled for AVX2 and has no AVX-512 code, so its speed does not
# depend on AVX-512). AVX2_ROW=0 leaves it out.
#
# `detect` (`facepipe run detect --mode yunet`: YuNet-s on facepipe's engine,
# detection only, the 20-px floor; docs/YUNET.md) runs next to the yuface
# wheel in every round, in alternating order, and on the AVX2 kernels too:
# the same detector against the same library, side by side (issue 37 item 5).
# DETECT_ONLY=1 runs only those rows (the wheel and `detect`).
#
# Environment: WORKERS (default 2), FLOORS (default none), AVX2_ROW (default 1), DETECT_ONLY (default 0), ROUNDS (default 5: the median of five
# back-to-back rounds is reported, with each round's ratio), ARCHIVE (default datasets/build/bench.tar,
# built by datasets/build-bench.py, or benchmarks/heavy_archive.py when that
# script is absent), MEDIAPIPE_VENV (default .venv-mediapipe).
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/venv.sh
scripts/install-system-deps.sh time   # GNU time for peak RSS

WORKERS="${WORKERS:-2}"
ROUNDS="${ROUNDS:-5}"
read -r -a FLOORS <<< "${FLOORS:-}"
ARCHIVE="${ARCHIVE:-datasets/build/bench.tar}"
VENV="${MEDIAPIPE_VENV:-.venv-mediapipe}"
REF_PY=.venv/bin/python   # the reference venv (make venv) holds yuface
# A benchmark build (FACEPIPE_BENCHMARKS, Package.swift): `model bench` below picks the AVX2 row.
export FACEPIPE_BENCHMARKS=1
swift build -c release --product facepipe > /dev/null
BIN="$(swift build -c release --show-bin-path)/facepipe"
# The AVX2 row (job `avx2`) only where the default kernel set is another one.
AVX2_JOBS=()
if [ "${AVX2_ROW:-1}" != 0 ] && "$BIN" model bench models/face_detection_short_range.tflite --iterations 1 2>/dev/null | grep -q 'kernels=avx512'; then
    AVX2_JOBS=(avx2)
fi

mkdir -p "$(dirname "$ARCHIVE")"
if [ ! -f "$ARCHIVE" ]; then
    if [ -f datasets/build-bench.py ]; then
        make -s sample >/dev/null   # the small pinned Pillow venv the dataset builders use
        .venv-data/bin/python datasets/build-bench.py --no-fetch --out "$ARCHIVE" --count "${COUNT:-400}"
    else
        python3 benchmarks/heavy_archive.py "$ARCHIVE" --count 400 --width 1600 --height 1200
    fi
fi

[ -x "$REF_PY" ] || make -s venv
"$REF_PY" -c "import yuface" 2>/dev/null || "$REF_PY" -m pip install --quiet -r scripts/requirements-reference.txt
DETECT_ONLY="${DETECT_ONLY:-0}"
[ "$DETECT_ONLY" = 1 ] || ensure_venv "$VENV" scripts/requirements-mediapipe.txt

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# measure NAME COMMAND...: wall time and peak RSS (largest single process) via GNU time.
# Each job starts after `sync`: the kernel writes a job's output files back to
# disk about 30 s after they are written (vm.dirty_expire_centisecs), on the
# same two cores, so without it every job also pays for flushing the previous
# job's gigabyte of PNGs, and which job that is depends on the round's order.
measure() {
    local name="$1"; shift
    sync
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

echo "archive: $ARCHIVE ($(du -h "$ARCHIVE" | cut -f1)), workers: $WORKERS, cores: $(nproc), rounds: $ROUNDS"
# Each round runs the four jobs back to back; the median over rounds damps
# the machine's drift (on this shared machine a job's rate moves by ±15 %
# from one minute to the next).
for round in $(seq 1 "$ROUNDS"); do
    run_detect() {
        measure "detect$round" "$BIN" run detect "$ARCHIVE" --out "$WORK/detect$round" --workers "$WORKERS" --quiet --mode yunet
    }
    run_yunet() {
        measure "yunet$round" taskset -c "0-$((WORKERS - 1))" env OMP_NUM_THREADS=1 "$REF_PY" benchmarks/yunet_baseline.py "$ARCHIVE" \
            --workers "$WORKERS"
    }
    # `detect` and the wheel next to each other, in alternating order.
    if [ $((round % 2)) = 1 ]; then run_detect; run_yunet; else run_yunet; run_detect; fi
    DETECT_JOBS=(detect)
    if [ ${#AVX2_JOBS[@]} -gt 0 ]; then
        measure "detectavx2$round" env FACEPIPE_KERNELS=8 "$BIN" run detect "$ARCHIVE" --out "$WORK/detectavx2$round" --workers "$WORKERS" \
            --quiet --mode yunet
        DETECT_JOBS+=(detectavx2)
    fi
    for job in "${DETECT_JOBS[@]}"; do
        echo "$job $round $(facepipe_counts "$WORK/$job$round") $(wall_s "$job$round") $(rss_mb "$job$round")" >> "$WORK/results"
        rm -rf "${WORK:?}/$job$round"
    done
    echo "yunet $round $(python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); print(d["images"], d["mp_per_s"]*d["seconds"], d["faces"])' "$WORK/yunet$round.out") $(wall_s "yunet$round") $(rss_mb "yunet$round")" >> "$WORK/results"
    [ "$DETECT_ONLY" = 1 ] && continue

    run_faces() { measure "facepipe$round" "$BIN" run faces "$ARCHIVE" --out "$WORK/facepipe$round" --workers "$WORKERS" --quiet; }
    run_mediapipe() {
        measure "mediapipe$round" taskset -c "0-$((WORKERS - 1))" "$VENV/bin/python" benchmarks/mediapipe_baseline.py "$ARCHIVE" \
            --out "$WORK/mediapipe$round" --workers "$WORKERS"
    }
    # The two runs a round's ratio compares go next to each other, in
    # alternating order (faces first in odd rounds), so drift of the
    # machine's speed between them is small and does not favour either.
    if [ $((round % 2)) = 1 ]; then run_faces; run_mediapipe; else run_mediapipe; run_faces; fi
    if [ ${#AVX2_JOBS[@]} -gt 0 ]; then
        measure "avx2$round" env FACEPIPE_KERNELS=8 "$BIN" run faces "$ARCHIVE" --out "$WORK/avx2$round" --workers "$WORKERS" --quiet
    fi
    measure "wholeframe$round" "$BIN" run whole-frame "$ARCHIVE" --out "$WORK/wholeframe$round" --workers "$WORKERS" --quiet
    measure "floor$round" "$BIN" run upright-png "$ARCHIVE" --out "$WORK/floor$round" --workers "$WORKERS" --quiet
    for size in "${FLOORS[@]}"; do
        measure "faces@$size$round" "$BIN" run faces "$ARCHIVE" --out "$WORK/faces@$size$round" --workers "$WORKERS" --quiet \
            --min-face-size "$size"
    done

    failed_everything=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(int(s["entries"] > 0 and s["failedEntries"] == s["entries"]))' "$WORK/facepipe$round/run.json")
    if [ "$failed_everything" = 1 ]; then
        echo "facepipe faces failed on every entry; first error:" >&2
        sed -n 2p "$WORK/facepipe$round/manifest.csv" >&2
        exit 1
    fi
    for job in floor facepipe wholeframe "${AVX2_JOBS[@]}" $(for size in "${FLOORS[@]}"; do echo "faces@$size"; done); do
        echo "$job $round $(facepipe_counts "$WORK/$job$round") $(wall_s "$job$round") $(rss_mb "$job$round")" >> "$WORK/results"
        rm -rf "${WORK:?}/$job$round"
    done
    echo "mediapipe $round $(python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); print(d["images"], d["mp_per_s"]*d["seconds"], d["faces"])' "$WORK/mediapipe$round.out") $(wall_s "mediapipe$round") $(rss_mb "mediapipe$round")" >> "$WORK/results"
    rm -rf "${WORK:?}/mediapipe$round"
done

python3 - "$WORK/results" <<'PY'
import statistics, sys
names = {"floor": "decode+PNG floor (facepipe upright-png)", "facepipe": "facepipe faces",
         "wholeframe": "facepipe whole-frame (MediaPipe's work)", "mediapipe": "MediaPipe Python (0.10.14)",
         "yunet": "YuNet detection only (yuface 2023.5.1)", "detect": "facepipe detect --mode yunet (YuNet-s)",
         "detectavx2": "facepipe detect --mode yunet, AVX2 kernels"}
runs = {}  # job -> [(round, images, megapixels, faces, seconds, rss)]
for line in open(sys.argv[1]):
    job, rnd, images, mp, faces, seconds, rss = line.split()
    runs.setdefault(job, []).append((int(rnd), int(images), float(mp), faces, float(seconds), rss))
if "avx2" in runs:
    names["avx2"] = "facepipe faces, AVX2 kernels"
names = {job: name for job, name in names.items() if job in runs}
for job in runs:
    if job.startswith("faces@"):
        names[job] = f"facepipe faces --min-face-size {job[6:]}"
rate = lambda run: run[1] / run[4]
rounds = len(runs["yunet"])
if rounds > 1 and "facepipe" in runs:
    for i in range(rounds):
        r = {job: rate(runs[job][i]) for job in names}
        print(f"round {i + 1}: img/s floor {r['floor']:.1f}, faces {r['facepipe']:.1f}, whole-frame {r['wholeframe']:.1f}, "
              f"MediaPipe {r['mediapipe']:.1f}, YuNet {r['yunet']:.1f}; faces / MediaPipe {r['facepipe'] / r['mediapipe']:.2f}x, "
              f"faces / YuNet {r['facepipe'] / r['yunet']:.2f}x, whole-frame / MediaPipe {r['wholeframe'] / r['mediapipe']:.2f}x")
if rounds > 1:
    print(f"median of {rounds} rounds:")
print(f"{'':42} {'images':>7} {'seconds':>8} {'img/s':>7} {'MP/s':>7} {'peak RSS MB':>12} {'faces':>6}")
rates = {}
for job, name in names.items():
    seconds = statistics.median(run[4] for run in runs[job])
    _, images, mp, faces, _, _ = runs[job][0]
    faces = "-" if job == "floor" else faces
    rss = max(int(run[5]) for run in runs[job])
    rates[job] = images / seconds
    print(f"{name:42} {images:7d} {seconds:8.2f} {images / seconds:7.2f} {mp / seconds:7.2f} {rss:>12} {faces:>6}")
ratios = lambda job, base="mediapipe": sorted(rate(a) / rate(b) for a, b in zip(runs[job], runs[base]))
span = lambda values: f" (rounds: {', '.join(f'{v:.2f}x' for v in values)})" if len(values) > 1 else ""
for job in ("detect", "detectavx2"):
    if job in runs:
        dy = ratios(job, "yunet")
        print(f"{names[job]} / YuNet throughput: {statistics.median(dy):.2f}x{span(dy)}   (the same detector; issue 37's target is 6x)")
if "facepipe" not in runs:
    print("ratios: median of the per-round ratios; peak RSS: largest single process over all rounds")
    sys.exit(0)
fp, wf, fy = ratios("facepipe"), ratios("wholeframe"), ratios("facepipe", "yunet")
print(f"facepipe faces / MediaPipe throughput: {statistics.median(fp):.2f}x{span(fp)}   (facepipe at {rates['facepipe'] / rates['floor'] * 100:.0f}% of its I/O floor)")
print(f"facepipe faces / YuNet throughput: {statistics.median(fy):.2f}x{span(fy)}   (YuNet: detection only)")
print(f"facepipe whole-frame / MediaPipe throughput: {statistics.median(wf):.2f}x{span(wf)}   (same detector, same frame, same per-face work)")
if "avx2" in runs:
    a2, a2y = ratios("avx2"), ratios("avx2", "yunet")
    print(f"facepipe faces on the AVX2 kernels (FACEPIPE_KERNELS=8: an AVX2-only CPU) / YuNet: {statistics.median(a2y):.2f}x{span(a2y)}, "
          f"/ MediaPipe: {statistics.median(a2):.2f}x{span(a2)}")
for job in (job for job in names if job.startswith("faces@")):
    print(f"{names[job]} / MediaPipe throughput: {statistics.median(ratios(job)):.2f}x{span(ratios(job))}")
print("ratios: median of the per-round ratios; peak RSS: largest single process over all rounds (MediaPipe uses one process per worker)")
print("faces: facepipe counts every detection (kept and rejected); MediaPipe counts its detections (full range, whole frame, score > 0.5); YuNet its detections with score >= 0.3")
PY
