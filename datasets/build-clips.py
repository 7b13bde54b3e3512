#!/usr/bin/env python3
"""Builds short video clips with known face boxes in every frame (issue 40).

Each clip is made from the photos in datasets/sources/ whose every face is
labelled (benchmarks/eval/source-boxes.json and crowd-boxes.json: t1, city,
bus, astronaut): a photo is panned and zoomed across the frame, or face crops
move over a face-free background (coffee, rocket). A face's box in a frame is
its source box put through the same transform, so the truth is exact.

  pan-zoom.mp4        H.264 1280x720 25 fps 4 s: t1 (six faces) panned and
                      zoomed in to 2x, faces leave the frame as it closes in
  enter-leave.mp4     H.264 1280x720 30 fps 5 s: face crops slide in and out
                      of every edge; one cut in and cut out between frames
  phone-portrait.mp4  H.264 stored 1280x720 with a 90° display matrix (shown
                      720x1280, as a phone held upright records), bus (two
                      faces) zooming in, AAC audio, location and creation time
  audio-metadata.mp4  H.264 1280x720 25 fps 4 s: city (19 faces) panned, AAC
                      440 Hz tone, and tags that identify: title, location
                      +48.8582+002.2945/, creation_time, handler names
  vp9.webm            VP9 + Opus in WebM 1280x720 25 fps 3 s: t1 panned
  hevc.mkv            H.265 in Matroska 1280x720 25 fps 3 s: t1 zooming out
  small-faces.mp4     H.264 1920x1080 25 fps 4 s: twelve faces 20–40 px wide
                      drifting over a background
  damaged.mp4         pan-zoom's first 3 s with the index at the front
                      (faststart), cut at 55 % of its bytes: the first frames
                      decode, then the data stops mid-stream

Next to each clip, NAME.truth.json:
  {"clip", "sha256", "width", "height" (as shown, after the display matrix),
   "stored_width", "stored_height", "rotation" (the display matrix's
   angle as ffprobe prints it: -90 = shown turned 90° clockwise), "fps", "frame_count", "duration", "video_codec", "audio"
   (codec or null), "tags" (container/stream tags written), "damaged"
   (null, or {"cut_at_bytes", "frames_decodable"}), "tracks" ({id: source
   photo and box}), "frames": [[{"track", "box": [x, y, w, h], "visible"},
   ...] for frame 0, 1, ...]}
Boxes are in shown (upright) pixels, clipped to the frame; `visible` is the
fraction of the whole box inside the frame (faces entering and leaving);
faces wholly outside are left out of that frame. clips.json indexes them all.

Deterministic: frames drawn by Pillow (fixed resampling), encoded by the
ffmpeg CLI with one thread, bit-exact flags and no metadata but what is set
here; the same sources, Pillow and ffmpeg builds give the same bytes, and the
script prints every file's SHA-256 (--check builds twice and compares).

Usage: .venv-data/bin/python datasets/build-clips.py [--out datasets/build/clips] [--no-fetch] [--check]
"""
import argparse
import hashlib
import json
import math
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import dataset_common as common  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402

SOURCE_BOXES = common.ROOT / "benchmarks" / "eval" / "source-boxes.json"
CROWD_BOXES = common.ROOT / "benchmarks" / "eval" / "crowd-boxes.json"
RESAMPLE = Image.Resampling.BILINEAR
# Bit-exact output, one encoder thread, no tags carried over from the inputs.
EXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", "-threads", "1"]
X264 = ["-c:v", "libx264", "-preset", "medium", "-crf", "24", "-pix_fmt", "yuv420p", "-x264-params", "threads=1:lookahead-threads=1"]
AAC = ["-c:a", "aac", "-b:a", "64k", "-ac", "1"]
CREATION_TIME = "2026-05-14T09:30:00.000000Z"
LOCATION = "+48.8582+002.2945/"


def photo_faces():
    """{photo: [[x, y, w, h], ...]} for the photos with every face labelled."""
    faces = {}
    source = json.loads(SOURCE_BOXES.read_text())["faces"]
    faces["astronaut.png"] = source["astronaut.png"]
    for name, photo in json.loads(CROWD_BOXES.read_text())["photos"].items():
        faces[name] = photo["faces"]
    return faces


class Track:
    """One face of a clip: where it came from and its box per frame."""

    def __init__(self, ident: int, source: str, box):
        self.ident, self.source, self.box = ident, source, list(box)


def clip_box(box, width, height):
    """(clipped [x, y, w, h], visible fraction) or None when wholly outside."""
    x, y, w, h = box
    x0, y0, x1, y1 = max(0.0, x), max(0.0, y), min(float(width), x + w), min(float(height), y + h)
    if x1 <= x0 or y1 <= y0:
        return None
    return [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)], round((x1 - x0) * (y1 - y0) / (w * h), 3)


class Clip:
    """Frames drawn one at a time and piped to ffmpeg; the truth gathered alongside."""

    def __init__(self, name, size, fps, seconds):
        self.name, self.size, self.fps = name, size, fps
        self.count = round(fps * seconds)
        self.frames = []
        self.tracks = {}

    def record(self, faces):
        """faces: [(Track, box in frame pixels)] for the frame just drawn."""
        row = []
        for track, box in faces:
            clipped = clip_box(box, *self.size)
            if clipped is None:
                continue
            self.tracks[track.ident] = track
            row.append({"track": track.ident, "box": clipped[0], "visible": clipped[1]})
        self.frames.append(row)


def window_frame(photo: Image.Image, window, size):
    """The part of `photo` in window (x, y, w, h) scaled to `size`."""
    x, y, w, h = window
    return photo.resize(size, RESAMPLE, box=(x, y, x + w, y + h))


def window_box(box, window, size):
    x, y, w, h = window
    sx, sy = size[0] / w, size[1] / h
    return [(box[0] - x) * sx, (box[1] - y) * sy, box[2] * sx, box[3] * sy]


def ease(t: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * min(1.0, max(0.0, t)))


def cover(image: Image.Image, size) -> Image.Image:
    """`image` scaled and cropped to fill `size` (a background)."""
    return ImageOps.fit(image.convert("RGB"), size, RESAMPLE)


def face_piece(photo: Image.Image, box, margin=0.35):
    """A face with `margin` of its side as context: (crop, box inside the crop)."""
    x, y, w, h = box
    side = max(w, h)
    left, top = max(0, int(x - margin * side)), max(0, int(y - margin * side))
    right, bottom = min(photo.width, math.ceil(x + w + margin * side)), min(photo.height, math.ceil(y + h + margin * side))
    return photo.crop((left, top, right, bottom)), (x - left, y - top, w, h)


def scaled_piece(piece, face_width):
    crop, (bx, by, bw, bh) = piece
    scale = face_width / bw
    size = (max(1, round(crop.width * scale)), max(1, round(crop.height * scale)))
    return crop.resize(size, Image.Resampling.LANCZOS), (bx * scale, by * scale, bw * scale, bh * scale)


def pan_clip(name, photo_name, size, fps, seconds, windows):
    """A photo seen through a window that moves from windows[0] to windows[1] (eased)."""
    photo = common.load(photo_name).convert("RGB")
    boxes = photo_faces()[photo_name]
    tracks = [Track(i, photo_name, b) for i, b in enumerate(boxes)]
    clip = Clip(name, size, fps, seconds)

    def frames():
        (a, b) = windows
        for i in range(clip.count):
            t = ease(i / (clip.count - 1))
            window = [a[k] + (b[k] - a[k]) * t for k in range(4)]
            clip.record([(track, window_box(track.box, window, size)) for track in tracks])
            yield window_frame(photo, window, size)
    return clip, frames()


def enter_leave_clip():
    size, fps, seconds = (1280, 720), 30, 5
    clip = Clip("enter-leave.mp4", size, fps, seconds)
    background = cover(common.load("coffee.png"), size)
    t1 = common.load("t1.jpg").convert("RGB")
    t1_boxes = photo_faces()["t1.jpg"]
    astronaut = common.load("astronaut.png").convert("RGB")
    W, H = size
    # (track, piece, face width, path(t) → top-left of the face box, or None when absent)
    movers = []

    def add(ident, source, piece, width, path):
        crop, box = scaled_piece(piece, width)
        movers.append((Track(ident, source, box), crop, box, path))

    # Paths chosen so that no crop ever lies over another face (the truth would label a hidden face).
    n = clip.count - 1
    add(0, "t1.jpg", face_piece(t1, t1_boxes[0]), 150, lambda i: (-220 + (W + 300) * i / n, 60))        # left → right along the top
    add(1, "t1.jpg", face_piece(t1, t1_boxes[3]), 120, lambda i: (1320 - 420 * min(1, i / 60), 330))    # in from the right, stays
    add(2, "t1.jpg", face_piece(t1, t1_boxes[4]), 110, lambda i: (420, -260 + (H + 460) * max(0, i - 90) / (n - 90)))  # top → bottom, from frame 90
    add(3, "astronaut.png", face_piece(astronaut, photo_faces()["astronaut.png"][0]), 130,
        lambda i: (1040, 560) if 60 <= i < 110 else None)                                                  # cut in, cut out
    add(4, "t1.jpg", face_piece(t1, t1_boxes[1]), 100, lambda i: (120 - 260 * max(0, (i - 90) / 59), 560))  # leaves by the left edge

    def frames():
        for i in range(clip.count):
            frame = background.copy()
            faces = []
            placed = []
            for track, crop, box, path in movers:
                at = path(i)
                if at is None:
                    continue
                ox, oy = round(at[0] - box[0]), round(at[1] - box[1])
                for px, py, pw, ph in placed:
                    assert ox >= px + pw or px >= ox + crop.width or oy >= py + ph or py >= oy + crop.height, (i, track.ident)
                placed.append((ox, oy, crop.width, crop.height))
                frame.paste(crop, (ox, oy))
                faces.append((track, [ox + box[0], oy + box[1], box[2], box[3]]))
            clip.record(faces)
            yield frame
    return clip, frames()


def small_faces_clip():
    size, fps, seconds = (1920, 1080), 25, 4
    clip = Clip("small-faces.mp4", size, fps, seconds)
    background = cover(common.load("rocket.jpg"), size)
    t1 = common.load("t1.jpg").convert("RGB")
    pieces = [face_piece(t1, b) for b in photo_faces()["t1.jpg"]]
    movers = []
    widths = [20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 25]
    for i, width in enumerate(widths):
        crop, box = scaled_piece(pieces[i % len(pieces)], width)
        # A 4 x 3 grid with room between the faces; each drifts on its own line.
        cx, cy = 200 + (i % 4) * 460, 180 + (i // 4) * 340
        dx, dy = ((i * 37) % 9 - 4) * 12, ((i * 53) % 7 - 3) * 10
        movers.append((Track(i, "t1.jpg", box), crop, box, cx, cy, dx, dy))

    def frames():
        for i in range(clip.count):
            frame = background.copy()
            faces = []
            t = i / (clip.count - 1)
            for track, crop, box, cx, cy, dx, dy in movers:
                ox, oy = round(cx + dx * t - box[0]), round(cy + dy * t - box[1])
                frame.paste(crop, (ox, oy))
                faces.append((track, [ox + box[0], oy + box[1], box[2], box[3]]))
            clip.record(faces)
            yield frame
    return clip, frames()


def rotated_clip():
    """Upright 720x1280 frames, stored turned 90° counter-clockwise; the display
    matrix (rotation -90 in ffprobe, as a phone held upright writes) turns them
    90° clockwise to show them upright. Returns the clip, the stored frames and
    the first upright frame (to check the file shows it)."""
    upright = (720, 1280)
    clip, frames = pan_clip("phone-portrait.mp4", "bus.jpg", upright, 30, 3, [(100, 0, 607.5, 1080), (120, 300, 360, 640)])
    first = {}

    def stored():
        for i, frame in enumerate(frames):
            if i == 0:
                first["frame"] = frame
            yield frame.transpose(Image.Transpose.ROTATE_90)
    return clip, stored(), first


def check_shown_upright(path: pathlib.Path, upright: Image.Image) -> None:
    """Asserts that ffmpeg, applying the display matrix, shows frame 0 as `upright`."""
    result = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                            capture_output=True, check=True)
    shown = Image.frombytes("L", upright.size, result.stdout)
    reference = upright.convert("L")
    small = (64, 64)
    a, b = shown.resize(small), reference.resize(small)
    diff = sum(abs(p - q) for p, q in zip(a.tobytes(), b.tobytes())) / (small[0] * small[1])
    assert diff < 8, f"{path.name} does not show upright (mean difference {diff:.1f})"


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def encode(clip: Clip, frames, out: pathlib.Path, video, container_args=(), audio=None, tags=(), stored=None, rotate=None):
    """Pipes `frames` (RGB, `stored` size) into ffmpeg. audio: (lavfi source, codec args), as
    long as the video. rotate: the `rotate` tag, which FFmpeg 5.1 turns into a display matrix
    only when it copies a stream, so the clip is encoded first and then copied with it."""
    if rotate is not None:
        encoded = out.with_name(out.name + ".unrotated.mp4")
        encode(clip, frames, encoded, video, container_args, audio, tags, stored)
        command = ["ffmpeg", "-v", "error", "-y", "-i", str(encoded), "-map", "0", "-c", "copy", "-map_metadata", "0",
                   "-fflags", "+bitexact", "-metadata:s:v:0", f"rotate={rotate}"] + list(container_args) + [str(out)]
        subprocess.run(command, check=True)
        encoded.unlink()
        return
    width, height = stored or clip.size
    command = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
               "-r", str(clip.fps), "-i", "-"]
    if audio:
        command += ["-f", "lavfi", "-i", f"{audio[0]}:duration={clip.count / clip.fps}"]
    command += ["-map", "0:v"] + (["-map", "1:a"] if audio else []) + EXACT + list(video) + (list(audio[1]) if audio else [])
    # No -frames:v: the pipe ends after the last frame, and a frame limit would end the audio early.
    command += list(tags) + list(container_args) + [str(out)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE)
    count = 0
    for frame in frames:
        assert frame.size == (width, height), (clip.name, frame.size)
        process.stdin.write(frame.tobytes())
        count += 1
    process.stdin.close()
    if process.wait() != 0:
        raise SystemExit(f"build-clips: ffmpeg failed on {out.name}")
    assert count == clip.count == len(clip.frames), (clip.name, count, clip.count, len(clip.frames))


def probe(path: pathlib.Path):
    result = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", str(path)],
                            capture_output=True, text=True)
    return json.loads(result.stdout or "{}")


def decodable_frames(path: pathlib.Path) -> int:
    """Frames ffmpeg decodes before the data ends (errors are expected on a cut file)."""
    result = subprocess.run(["ffmpeg", "-v", "quiet", "-i", str(path), "-map", "0:v:0", "-f", "framemd5", "-"],
                            capture_output=True, text=True)
    return sum(1 for line in result.stdout.splitlines() if line and not line.startswith("#"))


def write_truth(clip: Clip, path: pathlib.Path, *, rotation=0, tags=None, damaged=None):
    info = probe(path)
    streams = info.get("streams", [])
    video = next(s for s in streams if s["codec_type"] == "video")
    audio = next((s for s in streams if s["codec_type"] == "audio"), None)
    shown_rotation = next((int(d["rotation"]) for d in video.get("side_data_list", []) if "rotation" in d), 0)
    assert shown_rotation == rotation, (path.name, shown_rotation, rotation)
    truth = {
        "clip": path.name, "sha256": sha256(path), "bytes": path.stat().st_size,
        "width": clip.size[0], "height": clip.size[1],
        "stored_width": video["width"], "stored_height": video["height"], "rotation": rotation,
        "fps": clip.fps, "frame_count": clip.count, "duration": round(clip.count / clip.fps, 6),
        "video_codec": video["codec_name"], "audio": audio["codec_name"] if audio else None,
        "tags": tags or {}, "damaged": damaged,
        "box_format": "x, y, w, h in shown (upright) pixels, clipped to the frame; visible = fraction of the "
                      "whole face box inside the frame; boxes brows/forehead to chin, ear to ear "
                      "(benchmarks/eval/source-boxes.json, crowd-boxes.json)",
        "tracks": {str(t.ident): {"source": t.source, "source_box": t.box} for t in sorted(clip.tracks.values(), key=lambda t: t.ident)},
        "frames": clip.frames,
    }
    truth_path = path.with_name(path.name.rsplit(".", 1)[0] + ".truth.json")
    truth_path.write_text(json.dumps(truth, indent=None, separators=(",", ":")) + "\n")
    return truth


def build(out: pathlib.Path):
    out.mkdir(parents=True, exist_ok=True)
    built = []
    tone = "sine=frequency=440:sample_rate=48000"

    clip, frames = pan_clip("pan-zoom.mp4", "t1.jpg", (1280, 720), 25, 4, [(0, 0, 1280, 720), (400, 160, 640, 360)])
    encode(clip, frames, out / clip.name, X264)
    built.append(write_truth(clip, out / clip.name))

    clip, frames = enter_leave_clip()
    encode(clip, frames, out / clip.name, X264)
    built.append(write_truth(clip, out / clip.name))

    clip, frames, first = rotated_clip()
    tags = {"creation_time": CREATION_TIME, "location": LOCATION}
    encode(clip, frames, out / clip.name, X264, audio=(tone, AAC), stored=(1280, 720), rotate=270,
           tags=["-metadata", f"creation_time={CREATION_TIME}", "-metadata", f"location={LOCATION}"])
    check_shown_upright(out / clip.name, first["frame"])
    built.append(write_truth(clip, out / clip.name, rotation=-90, tags=tags))

    clip, frames = pan_clip("audio-metadata.mp4", "city.jpg", (1280, 720), 25, 4, [(0, 0, 800, 450), (80, 114, 640, 360)])
    tags = {"title": "Interview with Jane Doe, Paris", "location": LOCATION, "creation_time": CREATION_TIME,
            "handler_name": {"video": "Pixel 7 Pro camera", "audio": "Pixel 7 Pro microphone"}}
    encode(clip, frames, out / clip.name, X264, audio=(tone, AAC),
           tags=["-metadata", f"title={tags['title']}", "-metadata", f"location={LOCATION}",
                 "-metadata", f"creation_time={CREATION_TIME}",
                 "-metadata:s:v:0", f"handler_name={tags['handler_name']['video']}",
                 "-metadata:s:a:0", f"handler_name={tags['handler_name']['audio']}"])
    built.append(write_truth(clip, out / clip.name, tags=tags))

    clip, frames = pan_clip("vp9.webm", "t1.jpg", (1280, 720), 25, 3, [(0, 80, 960, 540), (320, 166, 960, 540)])
    encode(clip, frames, out / clip.name,
           ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "40", "-deadline", "good", "-cpu-used", "4", "-row-mt", "0",
            "-tile-columns", "0", "-pix_fmt", "yuv420p"],
           audio=(tone, ["-c:a", "libopus", "-b:a", "48k", "-ac", "1"]))
    built.append(write_truth(clip, out / clip.name))

    clip, frames = pan_clip("hevc.mkv", "t1.jpg", (1280, 720), 25, 3, [(300, 150, 720, 405), (0, 83, 1280, 720)])
    encode(clip, frames, out / clip.name,
           ["-c:v", "libx265", "-preset", "fast", "-crf", "28", "-pix_fmt", "yuv420p",
            "-x265-params", "pools=none:frame-threads=1:log-level=error"])
    built.append(write_truth(clip, out / clip.name))

    clip, frames = small_faces_clip()
    encode(clip, frames, out / clip.name, X264)
    built.append(write_truth(clip, out / clip.name))

    # pan-zoom's first 3 s, index first, cut at 55 %.
    clip, frames = pan_clip("damaged.mp4", "t1.jpg", (1280, 720), 25, 3, [(0, 0, 1280, 720), (400, 160, 640, 360)])
    whole = out / "damaged.whole.mp4"
    encode(clip, frames, whole, X264, container_args=["-movflags", "+faststart"])
    data = whole.read_bytes()
    whole.unlink()
    cut = len(data) * 55 // 100
    (out / clip.name).write_bytes(data[:cut])
    damaged = {"cut_at_bytes": cut, "whole_bytes": len(data), "frames_decodable": decodable_frames(out / clip.name)}
    built.append(write_truth(clip, out / clip.name, damaged=damaged))

    index = {"clips": [{k: t[k] for k in ("clip", "sha256", "bytes", "width", "height", "rotation", "fps", "frame_count",
                                           "video_codec", "audio", "damaged")}
                       | {"faces": sum(len(row) for row in t["frames"]), "tracks": len(t["tracks"])} for t in built]}
    (out / "clips.json").write_text(json.dumps(index, indent=1) + "\n")
    return built


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(common.ROOT / "datasets" / "build" / "clips"), help="folder for the clips")
    parser.add_argument("--no-fetch", action="store_true", help="do not run fetch-sources.py first")
    parser.add_argument("--check", action="store_true", help="build a second time in a temporary folder and compare bytes")
    args = parser.parse_args()
    if shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None:
        print("build-clips: ffmpeg and ffprobe are needed (make system-deps installs them)", file=sys.stderr)
        return 2
    if not args.no_fetch:
        common.ensure_sources()
    out = pathlib.Path(args.out)
    built = build(out)
    for truth in built:
        faces = sum(len(row) for row in truth["frames"])
        print(f"{out / truth['clip']}: {truth['frame_count']} frames, {truth['bytes'] / 1e6:.2f} MB, "
              f"{faces} faces, sha256 {truth['sha256']}")
    too_big = [t["clip"] for t in built if t["bytes"] >= 2_000_000]
    if too_big:
        print(f"build-clips: over 2 MB: {', '.join(too_big)}", file=sys.stderr)
        return 1
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            again = build(pathlib.Path(folder))
        differ = [a["clip"] for a, b in zip(built, again) if a["sha256"] != b["sha256"]]
        if differ:
            print(f"build-clips: not deterministic: {', '.join(differ)}", file=sys.stderr)
            return 1
        print(f"build-clips: a second build gave the same bytes for all {len(built)} clips")
    return 0


if __name__ == "__main__":
    sys.exit(main())
