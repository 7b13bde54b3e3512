#!/usr/bin/env bash
# Reading a photo archive: facepipe's TarReader (libarchive, one entry in memory
# at a time) beside what a user would reach for instead: GNU tar extracting to
# stdout and Python's tarfile reading every member. Best of 3 runs each, warm cache.
#   benchmarks/archive.sh [ARCHIVE]     (default: datasets/build/bench.tar, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:-datasets/build/bench.tar}"
py=".venv/bin/python"; [ -x "$py" ] || py=python3
if [ ! -f "$archive" ]; then
  make -s venv
  .venv/bin/python datasets/build-bench.py --out "$archive" --count 400
fi
for variant in gz zst; do
  [ -f "$archive.$variant" ] && continue
  case $variant in gz) gzip -6 -k -c "$archive" > "$archive.gz" ;; zst) zstd -q -3 -c "$archive" > "$archive.zst" 2>/dev/null || rm -f "$archive.zst" ;; esac
done

best_of_3() {  # prints the best wall time in seconds of "$@"
  local best=""
  for _ in 1 2 3; do
    local start end t
    start=$(date +%s.%N); "$@" > /dev/null; end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
  done
  echo "$best"
}

export FACEPIPE_BENCHMARKS=1  # the probes exist only then (Package.swift)
swift build -c release --product facepipe-probes > /dev/null
probes="$(swift build -c release --show-bin-path)/facepipe-probes"
names=""
printf "%-28s %10s %10s %10s %8s\n" archive facepipe "GNU tar" tarfile "tar/fp"
for a in "$archive" "$archive.gz" "$archive.zst"; do
  [ -f "$a" ] || continue
  out=$("$probes" archive "$a")
  fp=$(sed -n 's/^BENCH facepipe-TarReader .* seconds=\([0-9.e-]*\) .*/\1/p' <<< "$out")
  if [ "$a" = "$archive" ]; then names=$(sed -n 's/^BENCH \(SafeOutputPath .*\)/\1/p' <<< "$out"); fi
  case "$a" in *.zst) tarflags="--zstd -xOf" ;; *) tarflags="-xOf" ;; esac
  gnu=$(best_of_3 tar $tarflags "$a")
  pyt="n/a"
  [[ "$a" == *.zst ]] || pyt=$(best_of_3 "$py" -c 'import sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    for m in t:
        if m.isfile(): t.extractfile(m).read()' "$a")
  printf "%-28s %9.3fs %9.3fs %10s %7.2fx\n" "$(basename "$a")" "$fp" "$gnu" "$pyt" "$(echo "$gnu / $fp" | bc -l)"
done
echo "$names"
