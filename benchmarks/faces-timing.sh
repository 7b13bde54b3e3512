#!/usr/bin/env bash
# Face detection and landmark timings on this machine (release build, one thread):
# whole-frame detection per mode on t1.jpg (1280×886), accurate mode with tiling at
# several minFaceSize values (t1 and a 4000×3000 frame), Face Mesh with and without Iris.
# Needs `make models sources`. Prints "TIMING <case>: median <ms> ms".
set -euo pipefail
cd "$(dirname "$0")/.."
export FACEPIPE_BENCHMARKS=1  # the probes exist only then (Package.swift)
swift build -c release --product facepipe-probes > /dev/null
"$(swift build -c release --show-bin-path)/facepipe-probes" faces
