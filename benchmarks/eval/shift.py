#!/usr/bin/env python3
"""The labelled set shifted by a few pixels, or turned as whole pictures, to
show how much the detectors' sampling grids and a picture's tilt move the
scores.

YuNet-s scores a small face differently as the picture moves by a pixel
(0.32 to 0.67 for one 39-px face of the composite set; docs/BENCHMARKS.md,
2026-11-27, 9e9ccc4), so a precision or recall measured on the set as built holds
one draw of that noise. `eval-shifts.sh` runs a pipeline on copies of the
set with the first DX columns and DY rows cut off and scores each against
the original labels. With an ANGLE, each copy is then turned by ANGLE
degrees (counter-clockwise on screen) about its centre, the whole picture
kept (the canvas grows; the corners are grey), as a scanned or phone photo
held askew would be; a kept face's box is moved back by its centre (its
width and height are kept: the labels are upright boxes of the face's own
size, as the eval set's are).

  shift.py copy SRC DST DX DY [ANGLE]
                                upright, lossless (PNG) copies of SRC's
                                labelled images with DX columns and DY rows
                                cut from the top left and turned by ANGLE, in
                                DST, DST/names.json: copy name → original
                                name, and DST/cut-sizes.json: copy name →
                                [width, height] before it was turned
  shift.py back DST DX DY [ANGLE]
                                reads `manifest_faces.py` lines for DST's
                                copies on stdin and prints them as lines for
                                the originals: names, sizes and boxes moved
                                back, for `score.py`

Needs Pillow (`.venv`).
"""
import json
import math
import pathlib
import sys


def turned(x: float, y: float, width: float, height: float, angle: float, size: tuple) -> tuple:
    """Where the point (x, y) of a width × height picture lands when the
    picture is turned by `angle` degrees counter-clockwise on screen about its
    centre into a canvas of `size` (Pillow's `rotate(expand=True)`, which
    keeps the centre at the centre). A negative angle is the way back."""
    a = math.radians(angle)
    u, v = x - width / 2, y - height / 2
    return (u * math.cos(a) + v * math.sin(a) + size[0] / 2, -u * math.sin(a) + v * math.cos(a) + size[1] / 2)


def copy(src: pathlib.Path, dst: pathlib.Path, dx: int, dy: int, angle: float = 0) -> None:
    from PIL import Image, ImageOps
    labels = json.loads((src / "labels.json").read_text())["images"]
    dst.mkdir(parents=True, exist_ok=True)
    names, cut_sizes = {}, {}
    for name in sorted(labels):
        with Image.open(src / name) as opened:
            image = ImageOps.exif_transpose(opened).convert("RGB")
        width, height = image.size
        if (width, height) != (labels[name]["width"], labels[name]["height"]):
            raise SystemExit(f"shift.py: {name} is {width}x{height} upright, labelled {labels[name]['width']}x{labels[name]['height']}")
        if dx >= width or dy >= height:
            raise SystemExit(f"shift.py: cannot cut {dx}x{dy} px from {name} ({width}x{height})")
        copy_name = pathlib.Path(name).stem + ".png"
        if copy_name in names:
            raise SystemExit(f"shift.py: {name} and {names[copy_name]} would both be {copy_name}")
        image = image.crop((dx, dy, width, height))
        cut_sizes[copy_name] = list(image.size)
        if angle:
            image = image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=(128, 128, 128))
        image.save(dst / copy_name, compress_level=1)
        names[copy_name] = name
    (dst / "names.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    (dst / "cut-sizes.json").write_text(json.dumps(cut_sizes, indent=1, sort_keys=True) + "\n")


def back(dst: pathlib.Path, dx: int, dy: int, angle: float = 0) -> None:
    names = json.loads((dst / "names.json").read_text())
    cut_sizes = json.loads((dst / "cut-sizes.json").read_text())
    for text in sys.stdin:
        if not text.strip():
            continue
        line = json.loads(text)
        copy_name = pathlib.Path(line["file"]).name
        line["file"] = names[copy_name]
        if "error" not in line:
            if angle:
                cut = tuple(cut_sizes[copy_name])
                for face in line["faces"]:
                    cx, cy = turned(face["x"] + face["w"] / 2, face["y"] + face["h"] / 2,
                                    line["width"], line["height"], -angle, cut)
                    face["x"], face["y"] = cx - face["w"] / 2, cy - face["h"] / 2
                line["width"], line["height"] = cut
            line["width"] += dx
            line["height"] += dy
            for face in line["faces"]:
                face["x"] += dx
                face["y"] += dy
        print(json.dumps(line, sort_keys=True))


def main() -> int:
    args = sys.argv[1:]
    if len(args) in (5, 6) and args[0] == "copy":
        copy(pathlib.Path(args[1]), pathlib.Path(args[2]), int(args[3]), int(args[4]), float(args[5]) if len(args) == 6 else 0)
    elif len(args) in (4, 5) and args[0] == "back":
        back(pathlib.Path(args[1]), int(args[2]), int(args[3]), float(args[4]) if len(args) == 5 else 0)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
