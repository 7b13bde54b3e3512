#!/usr/bin/env bash
# Output identity check: runs each PIPELINE over ARCHIVE with 2 workers into
# OUTROOT/PIPELINE and prints short md5s of the manifest, of all per-image
# JSON and of all images (each over `md5sum` of the sorted files), so two
# builds or CPU kinds can be compared line by line.
#   scripts/output-hashes.sh BINARY ARCHIVE OUTROOT PIPELINE...
# e.g. scripts/output-hashes.sh .build/release/facepipe datasets/build/sample.tar /dev/shm/h faces whole-frame
set -uo pipefail
bin=$1; archive=$2; root=$3; shift 3
for p in "$@"; do
  out=$root/$p; rm -rf "$out"
  "$bin" run "$p" "$archive" --out "$out" --quiet --workers 2 >/dev/null 2>&1
  m=$(md5sum < "$out/manifest.csv" | cut -c1-12)
  j=$(cd "$out" && { find faces -type f 2>/dev/null | sort | xargs -r md5sum; } | md5sum | cut -c1-12)
  i=$(cd "$out" && { find images -type f 2>/dev/null | sort | xargs -r md5sum; } | md5sum | cut -c1-12)
  echo "$p manifest=$m json=$j png=$i rows=$(wc -l < "$out/manifest.csv")"
done
