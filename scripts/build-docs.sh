#!/usr/bin/env bash
# Builds the DocC reference of the Pipeline library (Sources/Pipeline/Pipeline.docc
# and the doc comments of its public API) into docs-out/Pipeline.doccarchive,
# from the release build's module: swift-symbolgraph-extract reads the public
# symbols, docc converts them with the catalogue. Any DocC warning (a broken
# symbol link, an unknown article) fails the build. `make docs` runs it after
# `make build`; `make test` runs it too.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(swift build -c release --show-bin-path)
OUT=${DOCS_OUT:-docs-out}
GRAPHS=$(mktemp -d)
trap 'rm -rf "$GRAPHS"' EXIT
# The C modules the Pipeline module imports: their module maps and headers.
ARGS=()
for map in "$BIN"/*.build/module.modulemap; do ARGS+=(-Xcc "-fmodule-map-file=$map"); done
# System libraries (Sources/C*/module.modulemap: libarchive, libpng, libjpeg-turbo, FFmpeg).
for map in Sources/C*/module.modulemap; do ARGS+=(-I "$(dirname "$map")"); done
for include in Sources/C*/include; do ARGS+=(-Xcc "-I$include"); done
swift-symbolgraph-extract -module-name Pipeline -I "$BIN/Modules" -target "$(uname -m)-unknown-linux-gnu" \
    -minimum-access-level public -skip-synthesized-members -output-dir "$GRAPHS" "${ARGS[@]}"
mkdir -p "$OUT"
docc convert Sources/Pipeline/Pipeline.docc --additional-symbol-graph-dir "$GRAPHS" \
    --fallback-display-name Pipeline --fallback-bundle-identifier facepipe.Pipeline \
    --output-path "$OUT/Pipeline.doccarchive" --warnings-as-errors
echo "DocC reference: $OUT/Pipeline.doccarchive (open with: docc preview, or serve it as a static site)"
