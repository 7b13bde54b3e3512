#!/usr/bin/env bash
# How a run grows with its size: `faces` over synthetic tars of small photos
# with real faces pasted (benchmarks/scale_tars.py, made at run time and kept
# in .build/bench-scale/), at each size of SCALE_SIZES. For each size it
# prints the first run's entries/s and peak RSS; the files and bytes in OUT
# (outside .cache), in OUT/.cache, and the most files in one folder; the
# time of a rerun with `--resume` (every entry from its completion record),
# of a plain rerun (every stage from the cache) and of `--only
# annotate`; the same run split in 8 shards (`--shard I/8`, one after the
# other) and the time and peak RSS of `facepipe merge`; `facepipe export
# coco` of OUT; and the run with `--output-tar`. Nothing is asserted.
#   benchmarks/scale.sh [BINARY]    (SCALE_SIZES="2000 20000 200000", SCALE_WORKERS=cores,
#                                    SCALE_ROWS="resume rerun annotate shards coco tar": the rows after
#                                    the first run; a smaller list for a quick look at a large size)
# OUT folders are removed after each size (200 000 entries write about 40 GB).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(make -s bin-path)}"
sizes="${SCALE_SIZES:-2000 20000 200000}"
workers="${SCALE_WORKERS:-$(nproc)}"
rows=" ${SCALE_ROWS:-resume rerun annotate shards coco tar} "
wanted() { [[ "$rows" == *" $1 "* ]]; }
work=".build/bench-scale"
mkdir -p "$work"
make -s sources > /dev/null

# Runs "$@" under /usr/bin/time; sets SECONDS_TAKEN (wall), CPU_TAKEN (user + sys), PEAK_MB, STATUS.
# Exit 0 or 1 (entries failed) is a run. CPU time is what to compare on a shared machine.
timed() {
  /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$@" > "$work/last.log" 2>&1
  STATUS=$?
  read -r SECONDS_TAKEN peak_kb user_s sys_s < <(tail -1 "$work/time.txt")
  CPU_TAKEN=$(echo "$user_s + $sys_s" | bc -l | xargs printf '%.1f')
  PEAK_MB=$(( peak_kb / 1024 ))
  if [ "$STATUS" -gt 1 ]; then echo "failed ($STATUS): $*" >&2; tail -5 "$work/last.log" >&2; fi
}
files() { find "$@" -type f 2>/dev/null | wc -l; }
bytes() { du -sb --apparent-size "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%.1f MB", s / 1e6 }'; }

echo "facepipe bench-scale: $(git rev-parse --short HEAD 2>/dev/null) $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), --workers $workers, load average $(cut -d" " -f1-3 /proc/loadavg)"
for n in $sizes; do
  tars="$work/tars-$n"
  if [ ! -f "$tars/scale.json" ]; then
    echo "making $n entries in $tars …" >&2
    .venv-data/bin/python benchmarks/scale_tars.py "$n" "$tars" || exit 1
  fi
  inputs=("$tars"/scale-*.tar)
  out="$work/out-$n"; rm -rf "$out" "$out-tar" "$out-sharded" "$out-coco"
  run=("$bin" run faces "${inputs[@]}" --workers "$workers" --quiet)

  timed "${run[@]}" --out "$out"
  first=$SECONDS_TAKEN; first_cpu=$CPU_TAKEN; first_mb=$PEAK_MB
  out_files=$(find "$out" -path "$out/.cache" -prune -o -type f -print | wc -l)
  out_bytes=$(cd "$out" && find . -path ./.cache -prune -o -type f -print0 | du -cb --apparent-size --files0-from=- | tail -1 | awk '{ printf "%.1f MB", $1 / 1e6 }')
  cache_files=$(files "$out/.cache"); cache_bytes=$(bytes "$out/.cache")
  cache_disk=$(du -sB1 "$out/.cache" 2>/dev/null | awk '{ printf "%.1f MB", $1 / 1e6 }')
  widest=$(find "$out" -type f -printf '%h\n' | sort | uniq -c | sort -rn | head -1 | awk '{ print $1 }')
  resumed="not run"; resumed_mb="-"; rerun="not run"; rerun_mb="-"; annotate="not run"
  shards_row="not run"; merge="not run"; merge_mb="-"; merged_same="-"
  coco="not run"; coco_mb="-"; tarred="not run"; tar_mb="-"; tar_files="-"; tar_bytes="-"
  if wanted resume; then
    timed "${run[@]}" --out "$out" --resume
    resumed="$SECONDS_TAKEN s (CPU $CPU_TAKEN s, $(echo "100 * $CPU_TAKEN / $first_cpu" | bc -l | xargs printf '%.1f') % of the first run's)"; resumed_mb=$PEAK_MB
  fi
  if wanted rerun; then timed "${run[@]}" --out "$out"; rerun="$SECONDS_TAKEN s (CPU $CPU_TAKEN s)"; rerun_mb=$PEAK_MB; fi
  if wanted annotate; then timed "${run[@]}" --out "$out" --only annotate; annotate="$SECONDS_TAKEN s (CPU $CPU_TAKEN s)"; fi

  if wanted shards; then
    sharded=0; sharded_cpu=0
    for i in 0 1 2 3 4 5 6 7; do
      timed "${run[@]}" --out "$out-sharded" --shard "$i/8"
      sharded=$(echo "$sharded + $SECONDS_TAKEN" | bc -l); sharded_cpu=$(echo "$sharded_cpu + $CPU_TAKEN" | bc -l)
    done
    shards_row="${sharded} s (CPU ${sharded_cpu} s)"
    timed "$bin" merge "$out-sharded"; merge="$SECONDS_TAKEN s (CPU $CPU_TAKEN s)"; merge_mb=$PEAK_MB
    merged_same=$(cmp -s "$out/manifest.csv" "$out-sharded/manifest.csv" && echo same || echo DIFFERENT)
    rm -rf "$out-sharded"
  fi

  if wanted coco; then
    timed "$bin" export coco "$out" --out "$out-coco"; coco="$SECONDS_TAKEN s (CPU $CPU_TAKEN s)"; coco_mb=$PEAK_MB
    rm -rf "$out-coco"
  fi

  if wanted tar; then
    timed "${run[@]}" --out "$out-tar" --output-tar; tarred="$SECONDS_TAKEN s (CPU $CPU_TAKEN s)"; tar_mb=$PEAK_MB
    tars=("$out-tar"/outputs/*.tar); [ -e "${tars[0]}" ] || tars=("$out-tar"/outputs.tar)  # the single outputs.tar of facepipe before numbered tars
    tar_files=${#tars[@]}; tar_bytes=$(bytes "${tars[@]}")
    rm -rf "$out-tar"
  fi

  rm -rf "$out"
  echo
  echo "== $n entries (8 tars, $(bytes "${inputs[@]}"))"
  printf "  %-44s %s\n" \
    "first run" "${first} s, $(echo "$n / $first" | bc -l | xargs printf '%.1f') entries/s; CPU ${first_cpu} s, $(echo "$n / $first_cpu" | bc -l | xargs printf '%.1f') entries per CPU-second; peak RSS ${first_mb} MB" \
    "OUT (outside .cache)" "${out_files} files, ${out_bytes}; at most ${widest} files in one folder" \
    "OUT/.cache" "${cache_files} files, ${cache_bytes} (${cache_disk} on disk)" \
    "rerun of the finished run (--resume)" "${resumed}$( [ "$resumed_mb" = - ] || echo ", peak RSS ${resumed_mb} MB")" \
    "rerun (same command)" "${rerun}$( [ "$rerun_mb" = - ] || echo ", peak RSS ${rerun_mb} MB")" \
    "--only annotate" "${annotate}" \
    "8 shards (--shard I/8, one after the other)" "${shards_row}" \
    "merge of the 8 shards" "${merge}$( [ "$merge_mb" = - ] || echo ", peak RSS ${merge_mb} MB, manifest ${merged_same} as one run's")" \
    "export coco" "${coco}$( [ "$coco_mb" = - ] || echo ", peak RSS ${coco_mb} MB")" \
    "--output-tar run" "${tarred}$( [ "$tar_files" = - ] || echo ", peak RSS ${tar_mb} MB, ${tar_files} tar files, ${tar_bytes}")"
done
