#!/usr/bin/env python3
"""The labelled set shifted by a few pixels, to show how much the detectors'
sampling grids move the scores.

YuNet-s scores a small face differently as the picture moves by a pixel
(0.32 to 0.67 for one 39-px face of the composite set; docs/BENCHMARKS.md,
2026-11-27, 9e9ccc4), so a precision or recall measured on the set as built holds
one draw of that noise. `eval-shifts.sh` runs a pipeline on copies of the
set with the first DX columns and DY rows cut off and scores each against
the original labels.

  shift.py copy SRC DST DX DY   upright, lossless (PNG) copies of SRC's
                                labelled images with DX columns and DY rows
                                cut from the top left, in DST, and
                                DST/names.json: copy name → original name
  shift.py back DST DX DY       reads `manifest_faces.py` lines for DST's
                                copies on stdin and prints them as lines for
                                the originals: names, sizes and boxes moved
                                back by (DX, DY), for `score.py`

Needs Pillow (`.venv`).
"""
import json
import pathlib
import sys


def copy(src: pathlib.Path, dst: pathlib.Path, dx: int, dy: int) -> None:
    from PIL import Image, ImageOps
    labels = json.loads((src / "labels.json").read_text())["images"]
    dst.mkdir(parents=True, exist_ok=True)
    names = {}
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
        image.crop((dx, dy, width, height)).save(dst / copy_name, compress_level=1)
        names[copy_name] = name
    (dst / "names.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


def back(dst: pathlib.Path, dx: int, dy: int) -> None:
    names = json.loads((dst / "names.json").read_text())
    for text in sys.stdin:
        if not text.strip():
            continue
        line = json.loads(text)
        copy_name = pathlib.Path(line["file"]).name
        line["file"] = names[copy_name]
        if "error" not in line:
            line["width"] += dx
            line["height"] += dy
            for face in line["faces"]:
                face["x"] += dx
                face["y"] += dy
        print(json.dumps(line, sort_keys=True))


def main() -> int:
    args = sys.argv[1:]
    if len(args) == 5 and args[0] == "copy":
        copy(pathlib.Path(args[1]), pathlib.Path(args[2]), int(args[3]), int(args[4]))
    elif len(args) == 4 and args[0] == "back":
        back(pathlib.Path(args[1]), int(args[2]), int(args[3]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
