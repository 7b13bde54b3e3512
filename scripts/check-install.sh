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
# Step 3 needs user namespaces (`unshare -r -m`); where they are not allowed the script
# says so and relies on steps 1 and 2. Usage: scripts/check-install.sh [SAMPLE]
# (default datasets/build/sample.tar). Exit 1 if a check fails, 2 on a setup problem.
set -euo pipefail
cd "$(dirname "$0")/.."
sample="${1:-datasets/build/sample.tar}"
make="${MAKE:-make}"
swift="${SWIFT:-swift}"

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
echo "check-install: the installed binary needs no Swift library (NEEDED: ${needed% }), loads nothing from the toolchain, $how"
