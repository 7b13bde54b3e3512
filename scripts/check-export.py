#!/usr/bin/env python3
"""Reads facepipe exports with their users' own loaders and prints what they saw as one JSON line.

  check-export.py coco ANNOTATIONS_JSON
      pycocotools loads the file; COCOeval of the annotations (as detections,
      scored by their `score`) against themselves, for bbox and keypoints.
      Prints images, annotations, keypoint names and both APs, and `files`:
      for each image, its file_name opened from the annotation file's folder
      (as a loader given that folder as its root does) and the stored size
      of the PNG or JPEG found there ([width, height]), or the OS's error.
  check-export.py webdataset SHARD...
      The webdataset package iterates the shards in order; prints the sample
      keys, which files each sample has and the faces in its json.
  check-export.py yaml DATASET_YAML
      PyYAML's safe_load reads the file (as Ultralytics does); prints its
      top-level keys, sorted, and the value of `train`.

The Swift tests (ExportTests) run this with .venv-export's Python and compare
the line with what they expect; this script asserts nothing itself.
"""
import contextlib
import io
import json
import os
import struct
import sys

import numpy as np


def average_precision(evaluation):
    # precision[T, R, K, A, M]: IoU/OKS thresholds, recall steps, category, area "all", the last maxDets.
    precision = evaluation.eval["precision"][:, :, 0, 0, -1]
    valid = precision[precision > -1]
    return float(np.mean(valid)) if valid.size else -1.0


def stored_size(path):
    """[width, height] of a PNG (IHDR) or JPEG (first SOF marker) as stored, else None."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return list(struct.unpack(">II", data[16:24]))
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 <= len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker == 0xFF:
                i += 1
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[i + 5:i + 9])
                return [width, height]
            i += 2 + length
    return None


def opened_files(truth, path):
    folder = os.path.dirname(os.path.abspath(path))
    files = []
    for image in truth.loadImgs(truth.getImgIds()):
        entry = {"file_name": image["file_name"]}
        try:
            entry["size"] = stored_size(os.path.join(folder, image["file_name"]))
        except OSError as error:
            entry["error"] = error.strerror
        files.append(entry)
    return files


def coco(path):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        truth = COCO(path)
    annotations = truth.loadAnns(truth.getAnnIds())
    category = truth.loadCats(truth.getCatIds())[0]
    detections = [dict(a) for a in annotations]
    result = {"images": len(truth.getImgIds()), "annotations": len(annotations),
              "keypoint_names": category["keypoints"], "skeleton_links": len(category["skeleton"]),
              "files": opened_files(truth, path)}
    if not detections:
        print(json.dumps(result))
        return
    with contextlib.redirect_stdout(io.StringIO()):
        found = truth.loadRes(detections)
        for iou_type in ("bbox", "keypoints"):
            evaluation = COCOeval(truth, found, iou_type)
            evaluation.params.maxDets = [1000]
            if iou_type == "keypoints":
                evaluation.params.kpt_oks_sigmas = np.full(len(category["keypoints"]), 0.025)
            evaluation.evaluate()
            evaluation.accumulate()
            result["ap_" + iou_type] = round(average_precision(evaluation), 6)
    print(json.dumps(result))


def webdataset(shards):
    import webdataset as wds

    samples = []
    for sample in wds.WebDataset(shards, shardshuffle=False):
        faces = json.loads(sample["json"]) if "json" in sample else None
        samples.append({"key": sample["__key__"],
                        "files": sorted(k for k in sample if not k.startswith("__")),
                        "png_bytes": len(sample.get("png", b"")),
                        "entry": faces.get("entry") if isinstance(faces, dict) else None,
                        "faces": len(faces["faces"]) if isinstance(faces, dict) and "faces" in faces else None})
    print(json.dumps({"samples": samples}))


def yaml_file(path):
    import yaml
    with open(path, "rb") as handle:
        data = yaml.safe_load(handle)
    print(json.dumps({"keys": sorted(data.keys()) if isinstance(data, dict) else None,
                      "train": data.get("train") if isinstance(data, dict) else None}))


if __name__ == "__main__":
    kind, arguments = sys.argv[1], sys.argv[2:]
    {"coco": lambda: coco(arguments[0]), "webdataset": lambda: webdataset(arguments),
     "yaml": lambda: yaml_file(arguments[0])}[kind]()
