#!/usr/bin/env python3
"""YuNet (libfacedetection, PyPI `yuface==2023.5.1`) detecting faces in every
image of tar archives, as a user would script it: detection only.

For every image (streamed with tarfile, never extracted): decode with Pillow,
apply EXIF orientation (`ImageOps.exif_transpose`), convert to BGR and run
`yuface.detect(image, 0.3)` at full resolution. Work is spread
over --workers processes (multiprocessing.Pool, OMP_NUM_THREADS=1 in each,
images sent as bytes, results back in archive order). Prints one JSON line
with images, seconds, images/s, MP/s and faces (the same fields as
mediapipe_baseline.py).
"""
import argparse
import io
import json
import os
import time

from tar_entries import tar_entries

os.environ.setdefault("OMP_NUM_THREADS", "1")

import multiprocessing  # noqa: E402


def _process(job):
    import numpy as np
    import yuface
    from PIL import Image, ImageOps
    index, name, data = job
    try:
        with Image.open(io.BytesIO(data)) as opened:
            image = ImageOps.exif_transpose(opened).convert("RGB")
    except Exception:
        return index, name, 0, 0
    bgr = np.ascontiguousarray(np.asarray(image)[:, :, ::-1])
    confs, _, _ = yuface.detect(bgr, 0.3)
    return index, name, image.width * image.height, len(confs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archives", nargs="+")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()
    start = time.perf_counter()
    images = pixels = faces = 0
    with multiprocessing.Pool(args.workers) as pool:
        for _, _, count, found in pool.imap(_process, tar_entries(args.archives), chunksize=1):
            images += 1
            pixels += count
            faces += found
    seconds = time.perf_counter() - start
    print(json.dumps({"images": images, "seconds": round(seconds, 3), "images_per_s": round(images / seconds, 3),
                      "mp_per_s": round(pixels / 1e6 / seconds, 3), "faces": faces}))


if __name__ == "__main__":
    main()
