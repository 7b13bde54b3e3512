#!/usr/bin/env bash
# examples/custom-pipeline builds and runs as a user's own package would.
#
# Copies the example to a temporary folder outside the checkout, points its
# facepipe dependency (the one `let facepipe` line of its Package.swift) at
# this checkout, builds it (release) and, from that folder:
#  1. `custom-faces pipelines` lists my-pipeline after facepipe's own, and
#     `describe my-pipeline` shows the example's stage with its option;
#  2. `swift run -c release custom-faces run my-pipeline SAMPLE --set
#     reject-border-faces.margin=M` exits 0, and its manifest.csv, read back,
#     has faces rejected by the example's stage with M in the reason, exactly
#     those whose box (x, y, w, h columns) comes within M px of the picture's
#     edge (width, height columns), and kept faces;
#  3. `custom-faces report` and `custom-faces export coco` work on that run;
#  4. facepipe's own pipeline definitions (pipelines/*.swift but the registry)
#     compile in a target of the copy that sees only the public Pipeline product.
# The build uses the checkout's own build folder (.build, or CHECK_EXAMPLE_SCRATCH),
# so facepipe's modules compiled there by `swift build -c release` are reused:
# only the example's module is compiled and its binary linked (25-60 s in all
# with the run, on 2 busy cores). Resolving the example drops the test-only CSV.swift checkout
# from .build; the checkout's next `swift build` restores it from SwiftPM's cache.
# Usage: scripts/check-example.sh [SAMPLE] (default datasets/build/sample.tar).
# Exit 1 if a check fails, 2 on a setup problem.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout="$(pwd -P)"
sample="$(realpath "${1:-datasets/build/sample.tar}")"
swift="${SWIFT:-swift}"
python="${PYTHON:-python3}"
scratch="${CHECK_EXAMPLE_SCRATCH:-$checkout/.build}"
margin=40

fail() { echo "check-example: FAILED: $*" >&2; exit 1; }
[[ -f "$sample" ]] || { echo "check-example: $sample not found (make sample)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/facepipe-check-example.XXXXXX")"
trap 'rm -rf "$work"' EXIT
case "$work/" in "$checkout"/*) echo "check-example: $work is inside the checkout" >&2; exit 2 ;; esac
cp -R examples/custom-pipeline "$work/custom-pipeline"
rm -rf "$work/custom-pipeline/.build"
manifest="$work/custom-pipeline/Package.swift"

# The dependency line is the only change a user's copy needs; it must be there once.
line='let facepipe: Package.Dependency = .package(name: "facepipe", path: "../..")'
[[ "$(grep -cxF "$line" "$manifest")" == 1 ]] || fail "$manifest has no line: $line"
escaped="$(printf '%s' "$checkout" | sed 's/[\\"]/\\&/g')"
"$python" - "$manifest" "$line" "let facepipe: Package.Dependency = .package(name: \"facepipe\", path: \"$escaped\")" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
grep -qF "path: \"$escaped\"" "$manifest" || fail "could not point $manifest at $checkout"

started=$SECONDS
"$swift" build -c release --package-path "$work/custom-pipeline" --scratch-path "$scratch" --product custom-faces \
  > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "swift build of the example"; }
echo "check-example: built custom-faces in $((SECONDS - started)) s ($(grep -c 'Compiling' "$work/build.log" || true) compile steps)"
bin="$("$swift" build -c release --package-path "$work/custom-pipeline" --scratch-path "$scratch" --show-bin-path)/custom-faces"
[[ -x "$bin" ]] || fail "no $bin after the build"

cd "$work"
# 1. The pipeline is listed, after the built-in ones, and described with its stage.
listed="$("$bin" pipelines)" || fail "custom-faces pipelines"
[[ "$(tail -n 1 <<< "$listed")" == "my-pipeline "* ]] || fail "custom-faces pipelines does not end with my-pipeline:"$'\n'"$listed"
[[ "$(head -n 1 <<< "$listed")" == "faces "*"(default)" ]] || fail "custom-faces pipelines does not start with faces (default):"$'\n'"$listed"
described="$("$bin" describe my-pipeline)" || fail "custom-faces describe my-pipeline"
grep -qF "reject-border-faces(margin: 0.0)" <<< "$described" || fail "describe shows no reject-border-faces(margin: 0.0):"$'\n'"$described"

# 2. The README's command, `swift run -c release custom-faces run my-pipeline …`, with the
#    stage's option set; the manifest read back.
"$swift" run -c release --package-path "$work/custom-pipeline" --scratch-path "$scratch" --skip-build \
  custom-faces run my-pipeline "$sample" --out out --quiet --set "reject-border-faces.margin=$margin" 2> run.log \
  || { cat run.log >&2; fail "swift run custom-faces run my-pipeline $sample"; }
"$python" - out/manifest.csv "$margin" <<'PY' || fail "the manifest of my-pipeline"
import csv, sys
path, margin = sys.argv[1], float(sys.argv[2])
reason = f"within {margin} px of the border"
rejected = kept = 0
with open(path, newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        if row["face"] == "":
            continue
        x, y, w, h = (float(row[k]) for k in ("x", "y", "w", "h"))
        width, height = float(row["width"]), float(row["height"])
        gap = min(x, y, width - (x + w), height - (y + h))  # to the nearest edge
        where = f'{row["archive"]} {row["entry"]} face {row["face"]}'
        if abs(gap - margin) < 0.02:
            continue  # two-decimal columns cannot tell which side it is
        if row["rejection"] == reason:
            rejected += 1
            if gap > margin:
                sys.exit(f"{where}: {gap:.2f} px from the edge, rejected as {reason!r}")
        elif row["status"] == "ok":
            kept += 1
            if gap < margin:
                sys.exit(f"{where}: {gap:.2f} px from the edge, kept")
        elif gap < margin and row["rejection"] == "":
            sys.exit(f"{where}: {gap:.2f} px from the edge, status {row['status']} without a reason")
if rejected == 0 or kept == 0:
    sys.exit(f"{rejected} faces rejected by reject-border-faces and {kept} kept: the sample should give both")
print(f"check-example: my-pipeline: {rejected} faces within {margin:g} px of the border rejected, {kept} kept")
PY

# 3. The other verbs on the run.
"$bin" report out > /dev/null 2> report.log || { cat report.log >&2; fail "custom-faces report out"; }
"$bin" export coco out --out coco > /dev/null 2> export.log || { cat export.log >&2; fail "custom-faces export coco out"; }
[[ -s coco/annotations.json ]] || fail "custom-faces export coco wrote no annotations.json"

# 4. facepipe's own pipelines are one more client of the same API: pipelines/*.swift
#    (but the registry) compile in a target of the copy that sees only the Pipeline product.
mkdir -p "$work/custom-pipeline/BuiltInPipelines"
for file in "$checkout"/pipelines/*.swift; do
  case "$(basename "$file")" in Registry.swift | PipelineRegistryError.swift) ;; *) cp "$file" "$work/custom-pipeline/BuiltInPipelines/" ;; esac
done
printf 'public enum Pipelines {}\n' > "$work/custom-pipeline/BuiltInPipelines/Namespace.swift"
cat >> "$manifest" <<'SWIFT'
package.targets.append(.target(name: "BuiltInPipelines", dependencies: [.product(name: "Pipeline", package: "facepipe")],
                               path: "BuiltInPipelines"))
SWIFT
"$swift" build -c release --package-path "$work/custom-pipeline" --scratch-path "$scratch" --target BuiltInPipelines \
  > "$work/built-in.log" 2>&1 || { cat "$work/built-in.log" >&2; fail "facepipe's pipelines/*.swift use more than the public API"; }
echo "check-example: ok ($((SECONDS - started)) s)"
