#!/usr/bin/env bash
# The binary `make install` installs runs on a machine without the Swift toolchain.
#
# Installs into a DESTDIR under a temporary folder (removed at the end), checks that the
# man page is there and describes the commands, then:
#  1. `readelf -d`: the binary needs no libswift*, libFoundation*, libdispatch or
#     libBlocksRuntime, and its RUNPATH/RPATH names no folder of the toolchain;
#  2. the dynamic loader's own list (LD_TRACE_LOADED_OBJECTS) holds no file of the toolchain;
#  3. `facepipe run faces SAMPLE` by the installed binary, with LD_LIBRARY_PATH unset and
#     the toolchain hidden (an empty folder mounted over it in a user and mount namespace,
#     so its libraries cannot be found by any path), writes the same manifest.csv as the
#     build's own binary.
#  4. a pipeline file with a stage of its own, compiled by the installed binary against the
#     installed kit (PREFIX/lib/facepipe) with the swiftc on PATH, runs on SAMPLE (its manifest
#     read back); a second run takes the tool from the cache (both times printed; it redoes the
#     file's stage on the cached detections, --from, and writes the same manifest); a file with
#     a type error gets the compiler's message with file:line and exit 2; a damaged cache entry
#     is rebuilt; two runs compiling one file at once leave one entry; a swiftc of another
#     version is refused; nothing is written outside the cache
#     folder and --out (HOME and TMPDIR are empty folders checked at the end).
# Step 3 needs user namespaces (`unshare -r -m`); where they are not allowed the script
# says so and relies on steps 1 and 2. Usage: scripts/check-install.sh [SAMPLE]
# (default datasets/build/sample.tar). Exit 1 if a check fails, 2 on a setup problem.
set -euo pipefail
cd "$(dirname "$0")/.."
sample="${1:-datasets/build/sample.tar}"
make="${MAKE:-make}"
swift="${SWIFT:-swift}"
PYTHON="${PYTHON:-python3}"

fail() { echo "check-install: FAILED: $*" >&2; exit 1; }
[[ -f "$sample" ]] || { echo "check-install: $sample not found (make sample)" >&2; exit 2; }
swift_path="$(command -v "$swift")" || { echo "check-install: $swift not on PATH" >&2; exit 2; }
# The toolchain's usr folder (/opt/swift/usr for /opt/swift/usr/bin/swift). Hidden whole,
# unless it is the system's /usr: then its Swift library folders are.
toolchain_usr="$(dirname "$(dirname "$(readlink -f "$swift_path")")")"
if [[ "$toolchain_usr" == /usr ]]; then
  hidden=(/usr/lib/swift /usr/lib/swift_static)
else
  hidden=("$toolchain_usr")
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/facepipe-check-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix=/usr/local
"$make" -s install DESTDIR="$work/root" PREFIX="$prefix" > "$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "make install DESTDIR=$work/root"; }
installed="$work/root$prefix/bin/facepipe"
[[ -x "$installed" ]] || fail "make install left no $installed"
manual="$work/root$prefix/share/man/man1/facepipe.1"
[[ -s "$manual" ]] || fail "make install left no man page at $manual"
grep -q '^\.Nm facepipe' "$manual" && grep -q 'Fl -pipeline' "$manual" \
  || fail "$manual does not describe facepipe run's options (generate-manual)"

# 1. What the binary asks the loader for.
dynamic="$(readelf -d "$installed")"
swift_needed="$(grep -E 'NEEDED' <<< "$dynamic" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_FoundationICU' || true)"
[[ -z "$swift_needed" ]] || fail "the installed binary needs Swift libraries:"$'\n'"$swift_needed"
paths="$(grep -E 'RUNPATH|RPATH' <<< "$dynamic" || true)"
for folder in "${hidden[@]}" /swift; do
  [[ "$paths" != *"$folder"* ]] || fail "the installed binary's search path names the toolchain: $paths"
done
needed="$(grep NEEDED <<< "$dynamic" | sed -E 's/.*\[(.*)\]/\1/' | tr '\n' ' ')"

# 2. What the loader loads (the libraries of the libraries too).
loaded="$(env -u LD_LIBRARY_PATH -u LD_PRELOAD LD_TRACE_LOADED_OBJECTS=1 "$installed")" \
  || fail "the loader cannot resolve the installed binary's libraries:"$'\n'"$loaded"
for folder in "${hidden[@]}"; do
  [[ "$loaded" != *"$folder/"* ]] || fail "the loader takes libraries from the toolchain ($folder):"$'\n'"$loaded"
done
grep -q "not found" <<< "$loaded" && fail "libraries not found:"$'\n'"$loaded"

# 2b. The README's package lists are what setup installs and what the binary needs, so they cannot drift:
# the setup list is scripts/install-system-deps.sh's, the runtime list the Debian packages that own the
# libraries the binary asks for (the C and C++ runtimes every Debian system has left out).
readme_setup="$(grep -oE 'installs whichever of `[^`]*`' README.md | sed -E 's/.*`(.*)`/\1/' | tr ' ' '\n' | sort)"
script_setup="$(sed -n '/^packages=(/,/)/p' scripts/install-system-deps.sh | tr -d '()' | sed 's/packages=//' | tr ' ' '\n' | grep -v '^$' | sort)"
[[ -n "$readme_setup" && "$readme_setup" == "$script_setup" ]] \
  || fail "README's setup packages differ from scripts/install-system-deps.sh:"$'\n'"$(diff <(echo "$readme_setup") <(echo "$script_setup") || true)"
readme_runtime="$(grep -oE 'it needs only `apt-get install [^`]*`' README.md | sed -E 's/.*install ([^`]*)`/\1/' | tr ' ' '\n' | sort)"
binary_runtime="$(for library in $needed; do
  file="$(awk -v l="$library" '$1 == l { print $3 }' <<< "$loaded")"
  [[ -n "$file" ]] || continue
  dpkg -S "/usr${file#/usr}" 2>/dev/null | head -n 1 | cut -d: -f1
done | grep -vE '^(libc6|libgcc-s1|libstdc\+\+6)$' | sort -u)"
[[ -n "$readme_runtime" && "$readme_runtime" == "$binary_runtime" ]] \
  || fail "README's runtime packages (make install) differ from those the binary needs:"$'\n'"$(diff <(echo "$readme_runtime") <(echo "$binary_runtime") || true)"

# 3. A real run with the toolchain out of reach, against the build's own binary.
built="$("$make" -s bin-path)"
"$built" run faces "$sample" --out "$work/out-built" --quiet 2> "$work/built.log" \
  || { cat "$work/built.log" >&2; fail "the build's binary could not run faces on $sample"; }
empty="$work/empty"
mkdir -p "$empty"
if unshare -r -m true 2> /dev/null; then
  mounts=""
  for folder in "${hidden[@]}"; do
    [[ -d "$folder" ]] && mounts+="mount --bind '$empty' '$folder' && "
  done
  # Inside: the toolchain folders are empty (checked), then the installed binary runs.
  status=0
  unshare -r -m bash -c "$mounts"'
      [[ ! -e "$1" ]] || { echo "the toolchain is still visible: $1" >&2; exit 97; }
      exec env -u LD_LIBRARY_PATH -u LD_PRELOAD -u FACEPIPE_MODELS "$2" run faces "$3" --out "$4" --quiet' \
    check "$swift_path" "$installed" "$sample" "$work/out-installed" 2> "$work/installed.log" || status=$?
  [[ $status == 0 ]] || { cat "$work/installed.log" >&2; fail "the installed binary, with ${hidden[*]} hidden, exited $status"; }
  cmp -s "$work/out-built/manifest.csv" "$work/out-installed/manifest.csv" \
    || fail "the installed binary's manifest differs from the build's ($work/out-*/manifest.csv)"
  how="ran faces on $sample with ${hidden[*]} hidden (same manifest.csv as the build's binary)"
else
  how="user namespaces are not allowed here, so the run with the toolchain hidden was left out (checks 1 and 2 only)"
fi
# 4. A pipeline in one file, compiled against the installed kit.
kit="$work/root$prefix/lib/facepipe"
[[ -f "$kit/swiftc-arguments" && -f "$kit/libfacepipe.a" ]] || fail "make install left no pipeline-file kit in $kit"
kit_size="$(du -sh "$kit" | cut -f1)"
step4_start=$EPOCHREALTIME
mkdir -p "$work/home" "$work/tmp" "$work/cache" "$work/files"
files="$work/files"
cp examples/pipeline-file/WideFaces.swift "$files/WideFaces.swift"   # the docs' example (docs/PIPELINES.md)
# The installed binary with a clean HOME, TMPDIR and cache, swiftc on PATH.
in_sandbox() { env -u LD_LIBRARY_PATH -u FACEPIPE_MODELS HOME="$work/home" TMPDIR="$work/tmp" XDG_CACHE_HOME="$work/cache" "$@"; }
seconds() { local start=$EPOCHREALTIME; "$@"; status=$?; elapsed="$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"; return $status; }
seconds in_sandbox "$installed" run --pipeline "$files/WideFaces.swift" "$sample" --out "$work/out-file" --quiet 2> "$work/file.log" \
  || { cat "$work/file.log" >&2; fail "the installed binary could not run the pipeline file $files/WideFaces.swift"; }
first="$elapsed"
grep -q "compiling $files/WideFaces.swift" "$work/file.log" || fail "the first run of the pipeline file did not compile it: $(cat "$work/file.log")"
"$PYTHON" - "$work/out-file/manifest.csv" <<'PY' || fail "the pipeline file's manifest is not what its stage says ($work/out-file/manifest.csv)"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["status"] in ("ok", "rejected")]
mine = [r for r in rows if r["rejection"] == "narrower than 60.0 px"]
assert mine, "no face rejected by the file's stage"
# w is printed with two decimals: 59.998 is "60.00".
assert all(float(r["w"]) <= 60.005 for r in mine), "a face at least 60 px wide was rejected"
assert all(float(r["w"]) >= 59.995 for r in rows if r["status"] == "ok"), "a narrower face was kept"
print(f"check-install: the pipeline file's stage rejected {len(mine)} of {len(rows)} faces")
PY
compiled="$(grep -o 'compiled .* in [0-9.]* s' "$work/file.log" | grep -o '[0-9.]* s$')"
# Again, from the cache, into the same folder: the file's stage and the outputs are redone on
# the cached detections (--from), by the cached tool, and write the same manifest.
cp "$work/out-file/manifest.csv" "$work/first-manifest.csv"
seconds in_sandbox "$installed" run --pipeline "$files/WideFaces.swift" "$sample" --out "$work/out-file" --from reject-narrow-faces --quiet \
  2> "$work/file2.log" || { cat "$work/file2.log" >&2; fail "the second run of the pipeline file failed"; }
second="$elapsed"
! grep -q "facepipe: compiling" "$work/file2.log" || fail "the second run compiled the pipeline file again instead of using the cache"
grep -q "cached stage results reused" "$work/file2.log" || fail "the second run did not run --from reject-narrow-faces: $(cat "$work/file2.log")"
cmp -s "$work/first-manifest.csv" "$work/out-file/manifest.csv" || fail "the cached tool wrote another manifest"
in_sandbox "$installed" describe --pipeline "$files/WideFaces.swift" > "$work/describe.txt" 2> "$work/describe.log" \
  && grep -q "reject-narrow-faces(min-width: 60.0)" "$work/describe.txt" \
  || fail "describe of the pipeline file: $(cat "$work/describe.txt" "$work/describe.log")"

# A type error: the compiler's message, with the file's name and line, and exit 2.
sed 's/var minWidth: Float = 60/var minWidth: Float = "sixty"/' "$files/WideFaces.swift" > "$files/Broken.swift"
line="$(grep -n 'var minWidth: Float = "sixty"' "$files/Broken.swift" | cut -d: -f1)"
[[ -n "$line" ]] || fail "could not plant a type error in a copy of examples/pipeline-file/WideFaces.swift"
status=0
in_sandbox "$installed" run --pipeline "$files/Broken.swift" "$sample" --out "$work/out-broken" --quiet 2> "$work/broken.log" || status=$?
[[ $status == 2 ]] || { cat "$work/broken.log" >&2; fail "a pipeline file with a type error exited $status, not 2"; }
grep -q "^$files/Broken.swift:$line:[0-9]*: error: " "$work/broken.log" \
  || { cat "$work/broken.log" >&2; fail "the compiler's message does not name Broken.swift:$line"; }
[[ ! -e "$work/out-broken" ]] || fail "a pipeline file that does not compile created its --out folder"

# A damaged cache entry (one byte of the tool changed) is built again, never run.
entry="$(dirname "$(find "$work/cache/facepipe/pipelines" -path '*/pipeline' -type f | head -n 1)")"
[[ -f "$entry/seal" ]] || fail "no cache entry with a seal under $work/cache/facepipe/pipelines"
printf 'X' | dd of="$entry/pipeline" bs=1 seek=4096 conv=notrunc status=none
cp "$entry/pipeline" "$work/damaged"
in_sandbox "$installed" describe --pipeline "$files/WideFaces.swift" > "$work/describe3.txt" 2> "$work/file3.log" \
  || { cat "$work/file3.log" >&2; fail "describe after damaging the cache entry failed"; }
grep -q "facepipe: compiling" "$work/file3.log" || fail "a damaged cache entry was used instead of rebuilt"
cmp -s "$work/describe.txt" "$work/describe3.txt" || fail "the rebuilt tool describes another pipeline"
cmp -s "$entry/pipeline" "$work/damaged" && fail "the damaged executable is still in the cache"

# Two runs compiling one new file at once: both run, one whole entry, no build folder left.
{ cat "$files/WideFaces.swift"; echo "// twice at once"; } > "$files/Twice.swift"
entries_before="$(find "$work/cache/facepipe/pipelines" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*' | wc -l)"
in_sandbox "$installed" describe --pipeline "$files/Twice.swift" > "$work/twice1.txt" 2> "$work/twice1.log" & twice1=$!
in_sandbox "$installed" describe --pipeline "$files/Twice.swift" > "$work/twice2.txt" 2> "$work/twice2.log" & twice2=$!
wait $twice1 || { cat "$work/twice1.log" >&2; fail "the first of two concurrent runs of one new file failed"; }
wait $twice2 || { cat "$work/twice2.log" >&2; fail "the second of two concurrent runs of one new file failed"; }
cmp -s "$work/twice1.txt" "$work/twice2.txt" && cmp -s "$work/twice1.txt" "$work/describe.txt" \
  || fail "two concurrent runs of one file described different pipelines"
entries_after="$(find "$work/cache/facepipe/pipelines" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*' | wc -l)"
[[ $entries_after == $((entries_before + 1)) ]] || fail "two concurrent runs of one file left $((entries_after - entries_before)) entries"
[[ -z "$(find "$work/cache/facepipe/pipelines" -maxdepth 1 -name '.building-*')" ]] || fail "a concurrent build left its folder"

# A swiftc of another version is refused, naming both.
mkdir -p "$work/other-swift"
printf '#!/bin/sh\necho "Swift version 5.10 (swift-5.10-RELEASE)"\n' > "$work/other-swift/swiftc"
chmod +x "$work/other-swift/swiftc"
status=0
PATH="$work/other-swift:$PATH" in_sandbox "$installed" run --pipeline "$files/WideFaces.swift" "$sample" --out "$work/out-other" --quiet \
  2> "$work/other.log" || status=$?
[[ $status == 2 ]] && grep -qF "Swift version 5.10" "$work/other.log" && grep -qF "$(head -n 1 "$kit/swift-version")" "$work/other.log" \
  || { cat "$work/other.log" >&2; fail "a swiftc of another version was not refused with both versions (exit $status)"; }

leftovers="$(find "$work/home" "$work/tmp" -mindepth 1 | head -n 5)"
[[ -z "$leftovers" ]] || fail "running pipeline files wrote outside the cache and --out: $leftovers"
step4="$(awk -v a="$step4_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')"
echo "check-install: a pipeline file with its own stage ran from the installed kit ($kit_size): first run ${first} s" \
  "(compiled in ${compiled}), second run from the cache ${second} s (--from its stage); type error, damaged cache entry," \
  "concurrent builds and another swiftc handled (this check: ${step4} s)"

echo "check-install: the installed binary needs no Swift library (NEEDED: ${needed% }), loads nothing from the toolchain, $how"
