#!/usr/bin/env python3
"""Fail unless every direct dependency in Package.swift is pinned to an exact version.

Reads the package the way SwiftPM does (`swift package dump-package`), so a
requirement written in any form (`from:`, a range, `branch:`, `revision:`) is
caught. Package.resolved is not in git (its commit ids depend on the mirror the
packages came from), so an exact version is what makes a clone build the same
code everywhere. Standard library only.
"""
import json
import subprocess
import sys


def main() -> int:
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    dump = json.loads(subprocess.run([swift, "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    bad, pins = [], []
    for dependency in dump["dependencies"]:
        kind, = dependency.keys()
        spec = dependency[kind][0]
        name = spec.get("identity") or spec.get("location", {}).get("remote", [{}])[0].get("urlString", "?")
        requirement = spec.get("requirement", {})
        exact = requirement.get("exact")
        if kind == "sourceControl" and exact:
            pins.append(f"{name} {exact[0]}")
        else:
            bad.append(f"{name}: {json.dumps(requirement) if requirement else kind}")
    if bad:
        print("check-pins: every direct dependency must be pinned with `exact:` in Package.swift:\n  " + "\n  ".join(bad), file=sys.stderr)
        return 1
    print("check-pins: " + ", ".join(pins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
