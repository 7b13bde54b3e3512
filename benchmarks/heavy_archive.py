#!/usr/bin/env python3
"""Builds a tar of large JPEGs (default 12 MP, 4000x3000) from the photos in
datasets/sources, for peak-RSS checks of `facepipe run`. Standard library
plus cjpeg/djpeg (libjpeg-turbo-progs) only. Deterministic.

usage: benchmarks/heavy_archive.py OUT.tar [--count N] [--width W --height H]
"""
import argparse, io, os, subprocess, sys, tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "datasets", "sources")

def read_ppm(data):
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace(): pos += 1
        start = pos
        while not data[pos:pos + 1].isspace(): pos += 1
        fields.append(data[start:pos])
    assert fields[0] == b"P6" and fields[3] == b"255"
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h * 3]

def upscale(w, h, pixels, W, H):
    cols = [(x * w // W) * 3 for x in range(W)]
    rows = {}
    out = bytearray()
    for y in range(H):
        sy = y * h // H
        if sy not in rows:
            src = pixels[sy * w * 3:(sy + 1) * w * 3]
            rows[sy] = bytes(b for c in cols for b in src[c:c + 3])
        out += rows[sy]
    return bytes(out)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--width", type=int, default=4000)
    ap.add_argument("--height", type=int, default=3000)
    args = ap.parse_args()
    photos = sorted(f for f in os.listdir(SOURCES) if f.endswith((".jpg", ".png", ".ppm")) and not f.endswith(".ljson"))
    sources = []
    for name in photos:
        path = os.path.join(SOURCES, name)
        if name.endswith(".ppm"):
            data = open(path, "rb").read()
        elif name.endswith(".jpg"):
            data = subprocess.run(["djpeg", "-ppm", path], capture_output=True, check=True).stdout
        else:
            continue
        try:
            sources.append((name, read_ppm(data)))
        except Exception:
            continue
    if not sources:
        sys.exit("no photos in datasets/sources (run `make sources`)")
    with tarfile.open(args.out, "w", format=tarfile.USTAR_FORMAT) as tar:
        for i in range(args.count):
            name, (w, h, pixels) = sources[i % len(sources)]
            big = upscale(w, h, pixels, args.width, args.height)
            ppm = b"P6\n%d %d\n255\n" % (args.width, args.height) + big
            jpeg = subprocess.run(["cjpeg", "-quality", "90"], input=ppm, capture_output=True, check=True).stdout
            info = tarfile.TarInfo("%04d_%s.jpg" % (i, os.path.splitext(name)[0]))
            info.size, info.mtime, info.mode = len(jpeg), 0, 0o644
            tar.addfile(info, io.BytesIO(jpeg))
            print("%s: %d bytes" % (info.name, len(jpeg)), file=sys.stderr)

if __name__ == "__main__":
    main()
