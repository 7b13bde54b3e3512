#!/usr/bin/env python3
"""MediaPipe's Python face solution doing facepipe's `faces` job, as a user would write it.

For every image of the tar archives (streamed with tarfile, never extracted):
decode with OpenCV, apply EXIF orientation (Pillow's exif_transpose, since
cv2.imdecode ignores EXIF), run MediaPipe face detection (full range, min
confidence 0.5), run Face Mesh (refine_landmarks=True: mesh + iris) on the
image, draw boxes and contours, write a PNG with cv2.imwrite's default
settings and a CSV row per face. Work is spread over --workers processes
(multiprocessing.Pool; images are sent to workers as bytes, results come back
in archive order). Prints one JSON line with images, seconds, images/s, MP/s.
"""
import argparse
import csv
import io
import json
import multiprocessing
import os
import pathlib
import time

from tar_entries import tar_entries

_state = {}


def _init_worker(out_dir: str) -> None:
    import mediapipe as mp

    _state["detector"] = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    _state["mesh"] = mp.solutions.face_mesh.FaceMesh(
        static_image_mode=True, max_num_faces=20, refine_landmarks=True, min_detection_confidence=0.5
    )
    _state["mp"] = mp
    _state["out"] = pathlib.Path(out_dir)


def _process(job):
    import cv2
    import numpy as np
    from PIL import Image, ImageOps

    index, name, data = job
    mp = _state["mp"]
    try:
        pil = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
        rgb = np.asarray(pil.convert("RGB"))
    except Exception as error:  # a user's script keeps going on bad images
        return index, name, 0, [("error", str(error).replace("\n", " "))]
    height, width = rgb.shape[:2]
    rows = []
    detections = _state["detector"].process(rgb).detections or []
    meshes = _state["mesh"].process(rgb).multi_face_landmarks or []
    canvas = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    for detection in detections:
        box = detection.location_data.relative_bounding_box
        x, y, w, h = box.xmin * width, box.ymin * height, box.width * width, box.height * height
        cv2.rectangle(canvas, (int(x), int(y)), (int(x + w), int(y + h)), (0, 255, 0), 2, cv2.LINE_AA)
        rows.append(("ok", f"{detection.score[0]:.4f}", f"{x:.2f}", f"{y:.2f}", f"{w:.2f}", f"{h:.2f}"))
    for landmarks in meshes:
        mp.solutions.drawing_utils.draw_landmarks(
            canvas, landmarks, mp.solutions.face_mesh.FACEMESH_CONTOURS, None,
            mp.solutions.drawing_styles.get_default_face_mesh_contours_style(),
        )
    if not rows:
        rows.append(("no_face",))
    out = _state["out"] / "images" / (name.replace("/", "_") + ".png")
    cv2.imwrite(str(out), canvas)
    return index, name, width * height, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archives", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    images = pixels = faces = 0
    with multiprocessing.Pool(args.workers, _init_worker, (str(out),)) as pool, \
            open(out / "manifest.csv", "w", newline="") as manifest:
        writer = csv.writer(manifest)
        writer.writerow(["entry", "status", "confidence", "x", "y", "w", "h"])
        for _, name, count, rows in pool.imap(_process, tar_entries(args.archives), chunksize=1):
            images += 1
            pixels += count
            for row in rows:
                writer.writerow([name, *row])
                faces += row[0] == "ok"
    seconds = time.perf_counter() - start
    print(json.dumps({"images": images, "seconds": round(seconds, 3), "images_per_s": round(images / seconds, 3),
                      "mp_per_s": round(pixels / 1e6 / seconds, 3), "faces": faces}))


if __name__ == "__main__":
    main()
