#!/usr/bin/env bash
# Codec throughput, one thread, side by side:
#   JPEG decode: facepipe (ImageDecoder, TurboJPEG → RGB) vs tjbench on the same files,
#                interleaved ROUNDS times, best of each (both measure wall time).
#   PNG encode:  FastPNGEncoder (facepipe's default) vs libpng level 1 + Up (the previous
#                default), zlib level 6, OpenCV's settings through libpng, and cv2.imencode
#                itself (.venv): MP/s, bytes/pixel and ratios, on the sample photos and
#                on one 12 MP photo from datasets/build/bench.tar when it exists.
# Usage: benchmarks/codecs.sh [FILES...]   (default: datasets/sources photos)
# Env: SECONDS_PER_RUN (default 1), ROUNDS (default 3), FACEPIPE (binary; default `make -s bin-path`).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN=${SECONDS_PER_RUN:-1}
ROUNDS=${ROUNDS:-3}
# bench-codecs is in a benchmark build only (FACEPIPE_BENCHMARKS, Package.swift).
export FACEPIPE_BENCHMARKS=1
[[ -n "${FACEPIPE:-}" ]] || swift build -c release --product facepipe > /dev/null
BIN=${FACEPIPE:-$(make -s bin-path)}
[[ -x "$BIN" ]] || { echo "codecs.sh: $BIN not built (run FACEPIPE_BENCHMARKS=1 make build)" >&2; exit 2; }
command -v tjbench >/dev/null || scripts/install-system-deps.sh libjpeg-turbo-progs
[[ -d datasets/sources ]] || python3 datasets/fetch-sources.py

if [[ $# -gt 0 ]]; then FILES=("$@"); else FILES=(datasets/sources/*.jpg datasets/sources/*.png); fi
JPEGS=(); for f in "${FILES[@]}"; do [[ $(head -c 3 "$f" | od -An -tx1 | tr -d ' ') == ffd8ff ]] && JPEGS+=("$f"); done

echo "facepipe codec benchmark — $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(best of $ROUNDS interleaved runs of ${SECONDS_PER_RUN}s each; one thread)"
echo
echo "JPEG decode to RGB (MP/s, wall clock)"
printf '%-28s %11s %10s %10s %8s\n' file size facepipe tjbench ratio
sum_ratio=0; count=0
for f in "${JPEGS[@]}"; do
    best_ours=0; best_tj=0; size=""
    for ((r = 0; r < ROUNDS; r++)); do
        tj=$(tjbench "$f" -rgb -benchtime "$SECONDS_PER_RUN" -warmup 0.5 -nowrite -quiet 2>/dev/null | awk '/^RGB/ {print $NF}')
        line=$("$BIN" bench-codecs "$f" --decode-only --seconds "$SECONDS_PER_RUN" | awk -F'\t' '$1 == "decode" && $2 != "file"')
        ours=$(cut -f6 <<<"$line"); size="$(cut -f4 <<<"$line")x$(cut -f5 <<<"$line")"
        best_ours=$(awk -v a="$best_ours" -v b="$ours" 'BEGIN {print (b > a) ? b : a}')
        best_tj=$(awk -v a="$best_tj" -v b="${tj:-0}" 'BEGIN {print (b > a) ? b : a}')
    done
    ratio=$(awk -v a="$best_ours" -v b="$best_tj" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')
    printf '%-28s %11s %10.1f %10.1f %7.0f%%\n' "$(basename "$f")" "$size" "$best_ours" "$best_tj" "$(awk -v r="$ratio" 'BEGIN {print r * 100}')"
    sum_ratio=$(awk -v s="$sum_ratio" -v r="$ratio" 'BEGIN {print s + r}'); count=$((count + 1))
done
[[ $count -gt 0 ]] && echo "mean facepipe/tjbench: $(awk -v s="$sum_ratio" -v n="$count" 'BEGIN {printf "%.0f%%", 100 * s / n}') (target ≥ 90%)"

# PNG encode: one table per image set (the sample photos; one ~12 MP photo from
# bench.tar when it exists). Ratios are against libpng level 1 + Up, the
# previous default; cv2.imencode('.png') runs in .venv on the same files.
png_table() {
    local title=$1; shift
    echo
    echo "PNG encode, $title (MP/s wall and thread-CPU; bytes per pixel; ratios vs libpng level 1 + Up)"
    printf '%-56s %10s %10s %12s %11s %11s\n' setting "MP/s wall" "MP/s cpu" "bytes/pixel" "speed×" "size×"
    declare -A best_wall best_cpu bpp
    local order=() name kind wall cpu bytes
    for ((r = 0; r < ROUNDS; r++)); do
        while IFS=$'\t' read -r kind name wall cpu bytes; do
            [[ $kind == encode && $name != setting ]] || continue
            [[ -n ${bpp[$name]:-} ]] || order+=("$name")
            bpp[$name]=$bytes
            best_wall[$name]=$(awk -v a="${best_wall[$name]:-0}" -v b="$wall" 'BEGIN {print (b > a) ? b : a}')
            best_cpu[$name]=$(awk -v a="${best_cpu[$name]:-0}" -v b="$cpu" 'BEGIN {print (b > a) ? b : a}')
        done < <("$BIN" bench-codecs "$@" --encode-only --seconds "$SECONDS_PER_RUN"
                 if [[ -x .venv/bin/python ]]; then .venv/bin/python - "$SECONDS_PER_RUN" "$@" 2>/dev/null <<'PY'
import sys, time
try:
    import cv2
except ImportError:
    sys.exit(0)
seconds, files = float(sys.argv[1]), sys.argv[2:]
images = [cv2.imread(f, cv2.IMREAD_COLOR) for f in files]
pixels = sum(i.shape[0] * i.shape[1] for i in images)
size = sum(len(cv2.imencode(".png", i)[1]) for i in images)
def run():
    for i in images:
        cv2.imencode(".png", i)
end = time.perf_counter() + min(0.5, seconds)
while time.perf_counter() < end:
    run()
n, w0, c0 = 0, time.perf_counter(), time.thread_time()
while time.perf_counter() - w0 < seconds:
    run(); n += 1
w, c = time.perf_counter() - w0, time.thread_time() - c0
print(f"encode\tcv2.imencode(opencv-default)\t{n * pixels / 1e6 / w:.1f}\t{n * pixels / 1e6 / c:.1f}\t{size / pixels:.3f}")
PY
                 fi)
    done
    local base="libpng(level1+up,previous-default)"
    for name in "${order[@]}"; do
        printf '%-56s %10.1f %10.1f %12.3f %10.2fx %10.2fx\n' "$name" "${best_wall[$name]}" "${best_cpu[$name]}" "${bpp[$name]}" \
            "$(awk -v a="${best_cpu[$name]}" -v b="${best_cpu[$base]:-0}" 'BEGIN {print (b > 0) ? a / b : 0}')" \
            "$(awk -v a="${bpp[$name]}" -v b="${bpp[$base]:-0}" 'BEGIN {print (b > 0) ? a / b : 0}')"
    done
}

png_table "${#FILES[@]} photos" "${FILES[@]}"
if [[ $# -eq 0 && -f datasets/build/bench.tar ]]; then
    big=$(tar -tf datasets/build/bench.tar | grep -E '3453x3453\.(jpg|png)$' | head -1 || true)
    if [[ -n $big ]]; then
        tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
        tar -xf datasets/build/bench.tar -C "$tmp" "$big"
        png_table "one 12 MP photo ($(basename "$big"))" "$tmp/$big"
    fi
fi
echo
echo "Full PNG sweeps: $BIN bench-codecs FILES... --encode-only --sweep (libpng) or --fast-sweep (FastPNGEncoder)"
