#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets in Fuzz/, made from the test
fixtures, the sample archives (datasets/build, `make sample`) and the verified
models; nothing here is committed. Standard library only.

    Fuzz/make-corpus.py OUT [--facepipe BINARY]

writes OUT/tar, OUT/image, OUT/exif, OUT/tflite, OUT/video (small clips made
with the ffmpeg command: each container family and codec facepipe reads, with
and without audio, and a cut and a chunk-written-twice variant) and, when a facepipe binary is
given (it runs the `faces` pipeline on three small sample photos),
OUT/stage-cache: the payloads of the stage cache and completion records it
wrote (the bytes between the record magic and the checksum, what
`fuzz-stage-cache` decodes) and its packs whole (index and segment), and OUT/run-folder: the `_SUCCESS`, run.json and
manifest.csv of a one-shard run over the same photos, and that manifest followed by a NUL and the
shard's `_SUCCESS.files` (what `fuzz-run-folder` reads).
"""
import argparse, io, os, pathlib, shutil, struct, subprocess, sys, tarfile, tempfile, zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "datasets/build/sample.tar"
SAMPLE_BAD = ROOT / "datasets/build/sample-bad.tar"
CODEC_FIXTURES = ROOT / "Tests/Fixtures/codecs"
MODELS = ROOT / "models"
# libFuzzer mutates small inputs fastest; larger files are left out.
SEED_LIMIT = 80_000
RECORD_MAGIC = b"FPREC2"
CHECKSUM = 32


def members(path, limit=SEED_LIMIT):
    """(name, bytes) of the regular members of a tar no larger than limit."""
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile() and member.size <= limit:
                yield member.name, archive.extractfile(member).read()


def pack_records(segment):
    """The payloads of a record pack's segment: frames of b"FPPR", the key's SHA-256, a little-endian length."""
    offset = 0
    while offset + 40 <= len(segment) and segment[offset:offset + 4] == b"FPPR":
        (length,) = struct.unpack_from("<I", segment, offset + 36)
        yield segment[offset + 40:offset + 40 + length]
        offset += 40 + length


def write(folder, name, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def tar_bytes(files, format=tarfile.USTAR_FORMAT, mode="w"):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=format) as archive:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("link-to-first")
        link.type, link.linkname = tarfile.SYMTYPE, files[0][0]
        archive.addfile(link)
    return buffer.getvalue()


def zip_bytes(files, compression):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in files:
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def exif_blocks(jpeg):
    """The TIFF blocks of a JPEG's APP1 `Exif\\0\\0` segments."""
    position = 2
    while position + 4 <= len(jpeg) and jpeg[position] == 0xFF:
        marker, length = jpeg[position + 1], struct.unpack(">H", jpeg[position + 2:position + 4])[0]
        segment = jpeg[position + 4:position + 2 + length]
        if marker == 0xE1 and segment.startswith(b"Exif\0\0"):
            yield segment[6:]
        if marker == 0xDA:
            return
        position += 2 + length


def images():
    found = [(p.name, p.read_bytes()) for p in sorted(CODEC_FIXTURES.iterdir()) if p.suffix in (".jpg", ".png")]
    found += list(members(SAMPLE)) + list(members(SAMPLE_BAD))
    return [(name, data) for name, data in found if len(data) <= SEED_LIMIT]


# Tiny clips (64x48, a few frames) of each container and codec the video reader takes: (name, ffmpeg options).
VIDEO_SEEDS = [
    ("h264.mp4", ["-c:v", "libx264", "-bf", "2", "-g", "4", "-movflags", "+faststart"]),
    ("h264-moov-last.mov", ["-c:v", "libx264", "-g", "4"]),
    ("h264-aac.mp4", ["-c:v", "libx264", "-g", "4", "-c:a", "aac", "-b:a", "16k"]),
    ("h264.mkv", ["-c:v", "libx264", "-g", "4"]),
    ("hevc.mp4", ["-c:v", "libx265", "-x265-params", "log-level=none", "-g", "4", "-tag:v", "hvc1"]),
    ("vp9-opus.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "4", "-c:a", "libopus", "-b:a", "8k"]),
    ("av1.mkv", ["-c:v", "libaom-av1", "-cpu-used", "8", "-g", "4"]),
]


def videos(out):
    """OUT/video: the clips above, and for each a cut copy and one with a stretch of its bytes written twice."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        print("video: ffmpeg not found, no seeds", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as work:
        for name, options in VIDEO_SEEDS:
            clip = pathlib.Path(work) / name
            audio = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.4"] if "-c:a" in options else []
            result = subprocess.run([ffmpeg, "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                                     "testsrc2=size=64x48:rate=10:duration=0.4"] + audio + options + ["-shortest", str(clip)],
                                    stderr=subprocess.PIPE)
            if result.returncode != 0 or not clip.exists():
                print(f"video: {name} not made: {result.stderr.decode(errors='replace').strip()}", file=sys.stderr)
                continue
            data = clip.read_bytes()
            if len(data) > SEED_LIMIT:
                continue
            write(out / "video", name, data)
            write(out / "video", "cut-" + name, data[:len(data) * 2 // 3])
            start, end = len(data) // 2, len(data) // 2 + 200
            write(out / "video", "twice-" + name, data[:end] + data[start:end] + data[end:])


def make(out, facepipe):
    shutil.rmtree(out, ignore_errors=True)
    pictures = images()
    small = [(name, data) for name, data in pictures if len(data) < 8_000][:3]
    for index, (name, data) in enumerate(pictures):
        write(out / "image", f"{index:03d}-{pathlib.Path(name).name}", data)
        for block_index, block in enumerate(exif_blocks(data)):
            write(out / "exif", f"{index:03d}-{block_index}", block)
    # Archives in each form the reader meets, around a few small photos.
    archives = {
        "ustar.tar": tar_bytes(small),
        "gnu-long-name.tar": tar_bytes([("d/" + "n" * 150 + ".jpg", small[0][1])] + small, tarfile.GNU_FORMAT),
        "pax.tar": tar_bytes([("pax/é ✓.jpg", small[0][1])], tarfile.PAX_FORMAT),
        "gzip.tar.gz": tar_bytes(small, mode="w:gz"),
        "bzip2.tar.bz2": tar_bytes(small, mode="w:bz2"),
        "xz.tar.xz": tar_bytes(small, mode="w:xz"),
        "stored.zip": zip_bytes(small, zipfile.ZIP_STORED),
        "deflated.zip": zip_bytes(small, zipfile.ZIP_DEFLATED),
        "empty.tar": bytes(1024),
        "bad-members.tar": tar_bytes([(name, data) for name, data in members(SAMPLE_BAD, 8_000)]),
    }
    for name, data in archives.items():
        write(out / "tar", name, data)
    write(out / "tar", "sample-bad-head.tar", SAMPLE_BAD.read_bytes()[:SEED_LIMIT])
    videos(out)
    for model in sorted(MODELS.glob("*.tflite")):
        if model.stat().st_size <= 400_000:
            write(out / "tflite", model.name, model.read_bytes())
    if facepipe:
        with tempfile.TemporaryDirectory() as work:
            work = pathlib.Path(work)
            (work / "in.tar").write_bytes(tar_bytes([(name, data) for name, data in pictures
                                                     if name.startswith("sample/")][:3]))
            subprocess.run([facepipe, "run", "faces", str(work / "in.tar"), "--out", str(work / "out"), "--quiet"],
                           check=True, stderr=subprocess.DEVNULL)
            index = 0
            for segment in sorted((work / "out/.cache").rglob("*.seg")):
                data = segment.read_bytes()
                # The pack itself: index and segment as fuzz-stage-cache splits them (a 4-byte length, the index, the segment).
                table = (segment.parent / "index").read_bytes()
                if len(table) + len(data) <= SEED_LIMIT:
                    write(out / "stage-cache", f"pack-{segment.parent.name}", struct.pack("<I", len(table)) + table + data)
                for payload in pack_records(data):
                    if payload.startswith(RECORD_MAGIC):
                        write(out / "stage-cache", f"{index:03d}", payload[len(RECORD_MAGIC) + 1:-CHECKSUM])
                        index += 1
            subprocess.run([facepipe, "run", "faces", str(work / "in.tar"), "--out", str(work / "sharded"),
                            "--shard", "0/1", "--quiet"], check=True, stderr=subprocess.DEVNULL)
            shard = work / "sharded/shards/0-of-1"
            for name in ("_SUCCESS", "run.json", "manifest.csv"):
                data = (shard / name).read_bytes()
                if len(data) <= SEED_LIMIT:
                    write(out / "run-folder", name, data)
            # The shard's file list as fuzz-run-folder plants it: its manifest, a NUL, then `_SUCCESS.files`.
            listed = (shard / "manifest.csv").read_bytes() + b"\0" + (shard / "_SUCCESS.files").read_bytes()
            if len(listed) <= SEED_LIMIT:
                write(out / "run-folder", "manifest-and-success-files", listed)
    for folder in sorted(out.iterdir()):
        print(f"{folder.name}: {len(list(folder.iterdir()))} seeds")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--facepipe", help="a built facepipe binary (for the stage-cache seeds)")
    arguments = parser.parse_args()
    make(arguments.out, arguments.facepipe)
