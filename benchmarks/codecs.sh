#!/usr/bin/env bash
# Codec throughput, one thread, side by side:
#   JPEG decode: facepipe (ImageDecoder, TurboJPEG → RGB) vs tjbench on the same files,
#                interleaved ROUNDS times, best of each (both measure wall time).
#   PNG encode:  facepipe's default vs zlib level 6 vs OpenCV's default (level 1 + RLE +
#                adaptive filters), MP/s and bytes/pixel over the same decoded photos.
# Usage: benchmarks/codecs.sh [FILES...]   (default: datasets/sources photos)
# Env: SECONDS_PER_RUN (default 1), ROUNDS (default 3), FACEPIPE (binary; default `make -s bin-path`).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_RUN=${SECONDS_PER_RUN:-1}
ROUNDS=${ROUNDS:-3}
BIN=${FACEPIPE:-$(make -s bin-path)}
[[ -x "$BIN" ]] || { echo "codecs.sh: $BIN not built (run make build)" >&2; exit 2; }
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

echo
echo "PNG encode of the decoded photos (MP/s wall and thread-CPU; bytes per pixel)"
printf '%-40s %10s %10s %12s\n' setting "MP/s wall" "MP/s cpu" "bytes/pixel"
declare -A best_wall best_cpu bpp
order=()
for ((r = 0; r < ROUNDS; r++)); do
    while IFS=$'\t' read -r kind name wall cpu bytes; do
        [[ $kind == encode && $name != setting ]] || continue
        [[ -n ${bpp[$name]:-} ]] || order+=("$name")
        bpp[$name]=$bytes
        best_wall[$name]=$(awk -v a="${best_wall[$name]:-0}" -v b="$wall" 'BEGIN {print (b > a) ? b : a}')
        best_cpu[$name]=$(awk -v a="${best_cpu[$name]:-0}" -v b="$cpu" 'BEGIN {print (b > a) ? b : a}')
    done < <("$BIN" bench-codecs "${FILES[@]}" --encode-only --seconds "$SECONDS_PER_RUN")
done
for name in "${order[@]}"; do
    printf '%-40s %10.1f %10.1f %12.3f\n' "$name" "${best_wall[$name]}" "${best_cpu[$name]}" "${bpp[$name]}"
done
echo
echo "Full PNG sweep (level × strategy × filter): $BIN bench-codecs FILES... --encode-only --sweep"
