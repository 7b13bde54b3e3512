#!/bin/bash
# Checks that another package can depend on facepipe the way a user's package
# names it: by URL, at a version tag. SwiftPM resolves a `file://` URL to a
# git clone exactly as it resolves a remote one (versions from tags), so no
# network is needed for facepipe itself.
#
#   scripts/check-url-dependency.sh [--build]
#
# The committed HEAD of this repository is cloned into a temporary folder and
# tagged 0.1.0; a temporary package depends on it with
# `.package(url: "file://…", exact: "0.1.0")` and on every product it declares
# (read with `swift package dump-package`). `swift package show-dependencies`
# then loads the package graph, which is where SwiftPM refuses a versioned
# dependency whose products hold targets with `unsafeFlags` ("the target 'X' in
# product 'Y' contains unsafe build flags"); that takes seconds. With --build
# the temporary package is also built (release), importing every library
# product's modules, which compiles facepipe's modules as a dependency (minutes).
# Uncommitted changes are not checked: the clone is of HEAD.
# Exit 0: the dependency loads (and builds); 1: refused or failed; 2: usage.
# See docs/DEVELOPMENT.md, "CPU target".
set -euo pipefail

build=0
case "${1:-}" in
    "") ;;
    --build) build=1 ;;
    *) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse HEAD)
swift=${SWIFT:-swift}
work=$(mktemp -d "${TMPDIR:-/tmp}/facepipe-url-dependency.XXXXXX")
trap 'rm -rf "$work"' EXIT
# SwiftPM leaves a lock file per build folder in the temporary folder: keep them in ours.
mkdir "$work/tmp"
export TMPDIR="$work/tmp"

# The clone's folder name is the package identity SwiftPM derives from the URL.
git clone --quiet --no-tags "$repo" "$work/facepipe"
git -C "$work/facepipe" checkout --quiet --detach "$commit"
git -C "$work/facepipe" tag 0.1.0

products=$(cd "$work/facepipe" && "$swift" package dump-package | python3 -c '
import json, sys
for product in json.load(sys.stdin)["products"]:
    kind = "library" if "library" in product["type"] else "executable"
    print(kind, product["name"], *product["targets"])
')
[ -n "$products" ] || { echo "check-url-dependency: $work/facepipe/Package.swift declares no product" >&2; exit 1; }

user="$work/user"
mkdir -p "$user/Sources/user"
dependencies=""
imports=""
while read -r kind name modules; do
    dependencies+="            .product(name: \"$name\", package: \"facepipe\"),"$'\n'
    if [ "$kind" = library ]; then
        for module in $modules; do imports+="import $module"$'\n'; done
    fi
done <<<"$products"
cat >"$user/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "user",
    dependencies: [.package(url: "file://$work/facepipe", exact: "0.1.0")],
    targets: [
        .executableTarget(name: "user", dependencies: [
$dependencies        ]),
    ]
)
EOF
printf '%sprint("facepipe resolved as a dependency")\n' "$imports" >"$user/Sources/user/main.swift"

echo "check-url-dependency: facepipe $commit as file://…/facepipe at 0.1.0, products: $(cut -d' ' -f2 <<<"$products" | tr '\n' ' ')"
cd "$user"
"$swift" package resolve >"$work/resolve.log" 2>&1 || { cat "$work/resolve.log" >&2; echo "check-url-dependency: FAILED: swift package resolve" >&2; exit 1; }
if ! "$swift" package show-dependencies >"$work/graph.log" 2>&1; then
    grep -E "error" "$work/graph.log" >&2 || cat "$work/graph.log" >&2
    echo "check-url-dependency: FAILED: SwiftPM does not load facepipe as a versioned dependency" >&2
    exit 1
fi
if [ "$build" = 1 ]; then
    if ! "$swift" build -c release >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log" >&2
        echo "check-url-dependency: FAILED: the package depending on facepipe does not build" >&2
        exit 1
    fi
    "$("$swift" build -c release --show-bin-path)/user"
fi
echo "check-url-dependency: OK"
