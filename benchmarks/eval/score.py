#!/usr/bin/env python3
"""Scores face detections against datasets/build/eval/labels.json.

Input: one JSON-lines file per method ({"file", "width", "height", "faces":
[{"x", "y", "w", "h", "score"}]} per image, as `facepipe detect` and
mediapipe_detect.py print), given as NAME=PATH[@SECONDS].

Matching, per image: detections in descending score order each take the
still-unmatched labelled face with the highest IoU, if that IoU is >= 0.5
(true positive); otherwise they are false positives. Then, per method:

- precision = TP / detections, recall = TP / labelled faces (all detections
  the method reports, i.e. at its default threshold 0.5);
- the same at stricter score thresholds (0.6, 0.7), for choosing a default;
- AP@0.5: area under the precision/recall curve of all detections of the set
  sorted by score, with VOC's all-point interpolation (precision made
  monotone from the right);
- recall by labelled face width: < 32 px, 32–64, 64–128, >= 128, and by
  face width over the image's long side: < 5 %, 5–10, 10–20, >= 20 %;
- recall and false positives by image kind (the tags in labels.json), and
  recall by the photo the face was cut from;
- with --lost-against NAME: the faces of at least --lost-from px (default
  40) that method NAME found and each other method missed (`make
  eval-turned`: every face found upright must be found in the turned
  pictures).

Standard library only. Prints one table (methods side by side) and writes it,
plus the list of missed faces per method, as Markdown to --out.
"""
import argparse
import json
import pathlib
import sys

IOU_THRESHOLD = 0.5
SIZE_BUCKETS = [("< 20 px", 0, 20), ("20–32 px", 20, 32), ("32–64 px", 32, 64), ("64–128 px", 64, 128), (">= 128 px", 128, float("inf"))]
# Precision and recall also shown for detections at or above these scores.
EXTRA_THRESHOLDS = [0.6, 0.7]
# Face width over the image's long side: what a whole-frame detector sees (a
# 192-px input shrinks a face to 192 × this fraction).
RELATIVE_BUCKETS = [("< 5 % of long side", 0, 0.05), ("5–10 %", 0.05, 0.10), ("10–20 %", 0.10, 0.20),
                    (">= 20 %", 0.20, float("inf"))]


def iou(a, b) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    x0, y0 = max(ax, bx), max(ay, by)
    x1, y1 = min(ax + aw, bx + bw), min(ay + ah, by + bh)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inter = (x1 - x0) * (y1 - y0)
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def ignored(box, regions) -> bool:
    """Whether an unmatched detection falls in an `ignore` region of the labels
    (its centre inside the region, or IoU >= 0.3 with it)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    return any((rx <= cx <= rx + rw and ry <= cy <= ry + rh) or iou(box, (rx, ry, rw, rh)) >= 0.3
               for rx, ry, rw, rh in regions)


def match_image(truth, faces, ignore=()):
    """Greedy matching; returns ([(score, is_tp)], [matched flag per labelled face]).
    A detection that matches no labelled face but lies in an `ignore` region is
    left out of the outcomes: neither a hit nor a false positive."""
    matched = [False] * len(truth)
    outcomes = []
    for face in sorted(faces, key=lambda f: -f["score"]):
        box = (face["x"], face["y"], face["w"], face["h"])
        best, best_iou = None, IOU_THRESHOLD
        for i, label in enumerate(truth):
            if matched[i]:
                continue
            overlap = iou(box, label)
            if overlap >= best_iou:
                best, best_iou = i, overlap
        if best is not None:
            matched[best] = True
        elif ignored(box, ignore):
            continue
        outcomes.append((face["score"], best is not None))
    return outcomes, matched


def average_precision(outcomes, positives: int) -> float:
    """VOC all-point interpolated AP over (score, is_tp) pairs."""
    if positives == 0:
        return float("nan")
    outcomes = sorted(outcomes, key=lambda o: -o[0])
    tp = fp = 0
    recalls, precisions = [0.0], [1.0]
    for _, hit in outcomes:
        tp += hit
        fp += not hit
        recalls.append(tp / positives)
        precisions.append(tp / (tp + fp))
    for i in range(len(precisions) - 2, -1, -1):
        precisions[i] = max(precisions[i], precisions[i + 1])
    return sum((recalls[i] - recalls[i - 1]) * precisions[i] for i in range(1, len(recalls)))


def load_lines(path: pathlib.Path):
    by_name = {}
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            by_name[pathlib.Path(record["file"]).name] = record
    return by_name


def score_method(labels, lines):
    outcomes, missed, errors, hits = [], [], [], {}
    size_hits = {b[0]: [0, 0] for b in SIZE_BUCKETS}
    from_20 = [0, 0]
    relative_hits = {b[0]: [0, 0] for b in RELATIVE_BUCKETS}
    tag_stats, source_stats = {}, {}
    total = 0
    for name, entry in sorted(labels.items()):
        truth = [tuple(b) for b in entry["faces"]]
        total += len(truth)
        record = lines.get(name)
        if record is None or "error" in record:
            errors.append(f"{name}: {record['error'] if record else 'no output line'}")
            faces = []
        else:
            faces = record["faces"]
            if (record["width"], record["height"]) != (entry["width"], entry["height"]):
                errors.append(f"{name}: upright size {record['width']}x{record['height']}, "
                              f"labelled {entry['width']}x{entry['height']}")
        image_outcomes, matched = match_image(truth, faces, [tuple(b) for b in entry.get("ignore", [])])
        outcomes += image_outcomes
        false_positives = sum(not hit for _, hit in image_outcomes)
        for index, (label, hit) in enumerate(zip(truth, matched)):
            hits[(name, index)] = (hit, label)
        for label, hit, source in zip(truth, matched, entry.get("face_sources") or [None] * len(truth)):
            if source:
                stats = source_stats.setdefault(source, [0, 0])
                stats[0] += hit
                stats[1] += 1
            if label[2] >= 20:
                from_20[0] += hit
                from_20[1] += 1
            for bucket, low, high in SIZE_BUCKETS:
                if low <= label[2] < high:
                    size_hits[bucket][0] += hit
                    size_hits[bucket][1] += 1
            for bucket, low, high in RELATIVE_BUCKETS:
                if low <= label[2] / max(entry["width"], entry["height"]) < high:
                    relative_hits[bucket][0] += hit
                    relative_hits[bucket][1] += 1
            if not hit:
                missed.append(f"{name} [{', '.join(f'{v:.0f}' for v in label)}]")
        for tag in entry.get("tags", []):
            stats = tag_stats.setdefault(tag, [0, 0, 0])
            stats[0] += sum(matched)
            stats[1] += len(truth)
            stats[2] += false_positives
    tp = sum(hit for _, hit in outcomes)
    at_threshold = {}
    for threshold in EXTRA_THRESHOLDS:
        kept = [hit for score, hit in outcomes if score >= threshold]
        at_threshold[threshold] = (sum(kept) / len(kept) if kept else float("nan"), sum(kept) / total if total else float("nan"))
    return {
        "detections": len(outcomes), "tp": tp, "faces": total,
        "precision": tp / len(outcomes) if outcomes else float("nan"),
        "recall": tp / total if total else float("nan"),
        "ap": average_precision(outcomes, total), "at_threshold": at_threshold,
        "sizes": size_hits, "from_20": from_20, "relative": relative_hits, "tags": tag_stats, "sources": source_stats, "missed": missed, "errors": errors,
        "hits": hits,
    }


def fmt(value, digits=3):
    return "—" if value != value else f"{value:.{digits}f}"


def lost(results, reference: str, method: str, min_width: float):
    """The faces at least `min_width` px wide that `reference` found and `method` missed."""
    return [f"{name} [{', '.join(f'{v:.0f}' for v in label)}]"
            for (name, index), (hit, label) in sorted(results[reference]["hits"].items())
            if hit and label[2] >= min_width and not results[method]["hits"][(name, index)][0]]


def table(methods, results, seconds, lost_against=None, lost_from=40):
    header = ["", *methods]
    rows = [
        ["labelled faces", *[str(results[m]["faces"]) for m in methods]],
        ["detections (score >= 0.5)", *[str(results[m]["detections"]) for m in methods]],
        ["true positives (IoU >= 0.5)", *[str(results[m]["tp"]) for m in methods]],
        ["precision", *[fmt(results[m]["precision"]) for m in methods]],
        ["recall", *[fmt(results[m]["recall"]) for m in methods]],
        ["AP@0.5", *[fmt(results[m]["ap"]) for m in methods]],
    ]
    for threshold in EXTRA_THRESHOLDS:
        rows.append([f"precision / recall, score >= {threshold}",
                     *[f"{fmt(results[m]['at_threshold'][threshold][0])} / {fmt(results[m]['at_threshold'][threshold][1])}" for m in methods]])
    rows.append(["recall, faces >= 20 px", *[f"{results[m]['from_20'][0] / results[m]['from_20'][1]:.3f} "
                                             f"({results[m]['from_20'][0]}/{results[m]['from_20'][1]})"
                                             if results[m]["from_20"][1] else "—" for m in methods]])
    for bucket, _, _ in SIZE_BUCKETS:
        cells = []
        for m in methods:
            hit, count = results[m]["sizes"][bucket]
            cells.append(f"{hit / count:.3f} ({hit}/{count})" if count else "—")
        rows.append([f"recall, face {bucket}", *cells])
    for bucket, _, _ in RELATIVE_BUCKETS:
        cells = []
        for m in methods:
            hit, count = results[m]["relative"][bucket]
            cells.append(f"{hit / count:.3f} ({hit}/{count})" if count else "—")
        rows.append([f"recall, face {bucket}", *cells])
    tags = sorted({t for m in methods for t in results[m]["tags"]})
    for tag in tags:
        cells = []
        for m in methods:
            hit, count, fps = results[m]["tags"].get(tag, [0, 0, 0])
            cells.append(f"{hit}/{count}, {fps} FP" if count else f"{fps} FP")
        rows.append([f"{tag}: found, false pos.", *cells])
    for source in sorted({src for m in methods for src in results[m]["sources"]}):
        cells = []
        for m in methods:
            hit, count = results[m]["sources"].get(source, [0, 0])
            cells.append(f"{hit}/{count}")
        rows.append([f"faces from {source}: found", *cells])
    if lost_against:
        found = sum(hit and label[2] >= lost_from for hit, label in results[lost_against]["hits"].values())
        rows.append([f"faces >= {lost_from:g} px found by {lost_against} ({found}): lost",
                     *[str(len(lost(results, lost_against, m, lost_from))) for m in methods]])
    if any(seconds.get(m) is not None for m in methods):
        rows.append(["wall time, s", *[fmt(seconds[m], 1) if seconds.get(m) is not None else "—" for m in methods]])
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    text = ["| " + " | ".join(c.ljust(w) for c, w in zip(header, widths)) + " |",
            "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    text += ["| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) + " |"
             for r in rows]
    return "\n".join(text)


def self_test() -> None:
    """Hand-computed cases for the matching and AP code (`score.py --self-test`)."""
    assert abs(iou((0, 0, 10, 10), (5, 0, 10, 10)) - 50 / 150) < 1e-9
    assert iou((0, 0, 10, 10), (10, 0, 10, 10)) == 0
    # Two faces; detections 0.9 hit, 0.8 miss, 0.7 hit: precision envelope 1, 2/3 → AP = 0.5·1 + 0.5·2/3.
    assert abs(average_precision([(0.9, True), (0.8, False), (0.7, True)], 2) - (0.5 + 1 / 3)) < 1e-9
    assert average_precision([], 3) == 0
    # A duplicate of a matched face is a false positive; the better-scoring one takes the face.
    outcomes, matched = match_image([(0, 0, 10, 10)], [{"x": 1, "y": 0, "w": 10, "h": 10, "score": 0.6},
                                                       {"x": 0, "y": 0, "w": 10, "h": 10, "score": 0.9}])
    assert outcomes == [(0.9, True), (0.6, False)] and matched == [True], outcomes
    # IoU just under 0.5 does not match.
    outcomes, matched = match_image([(0, 0, 10, 10)], [{"x": 3.4, "y": 0, "w": 10, "h": 10, "score": 0.9}])
    assert outcomes == [(0.9, False)] and matched == [False]
    # A detection in an ignore region is dropped; one outside stays a false positive.
    outcomes, matched = match_image([(0, 0, 10, 10)], [{"x": 50, "y": 50, "w": 8, "h": 8, "score": 0.8},
                                                       {"x": 90, "y": 0, "w": 8, "h": 8, "score": 0.7}],
                                    ignore=[(48, 48, 12, 12)])
    assert outcomes == [(0.7, False)] and matched == [False], outcomes
    # A face found by the reference and missed by the other method is lost; a face below the width is not counted.
    labels = {"a.png": {"width": 100, "height": 100, "faces": [[0, 0, 50, 50], [60, 60, 30, 30]]}}
    both = {"a.png": {"file": "a.png", "width": 100, "height": 100, "faces": [
        {"x": 0, "y": 0, "w": 50, "h": 50, "score": 0.9}, {"x": 60, "y": 60, "w": 30, "h": 30, "score": 0.9}]}}
    none = {"a.png": {"file": "a.png", "width": 100, "height": 100, "faces": []}}
    results = {"ref": score_method(labels, both), "other": score_method(labels, none)}
    assert lost(results, "ref", "other", 40) == ["a.png [0, 0, 50, 50]"], lost(results, "ref", "other", 40)
    assert lost(results, "other", "ref", 20) == []
    print("score.py self-test: ok")


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    parser = argparse.ArgumentParser(description="Precision, recall and AP@0.5 of face detectors on the eval set.")
    parser.add_argument("--labels", type=pathlib.Path, default=pathlib.Path("datasets/build/eval/labels.json"))
    parser.add_argument("--out", type=pathlib.Path, help="also write the table (Markdown) here")
    parser.add_argument("--lost-against", metavar="NAME", help="count the faces this method found that each other one missed")
    parser.add_argument("--lost-from", type=float, default=40, help="... of at least this width in px (default 40)")
    parser.add_argument("methods", nargs="+", help="NAME=DETECTIONS.jsonl[@SECONDS]")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text())["images"]
    names, results, seconds = [], {}, {}
    for spec in args.methods:
        name, _, rest = spec.partition("=")
        path, _, wall = rest.partition("@")
        names.append(name)
        results[name] = score_method(labels, load_lines(pathlib.Path(path)))
        seconds[name] = float(wall) if wall else None
    if args.lost_against is not None and args.lost_against not in results:
        parser.error(f"--lost-against {args.lost_against}: no method of that name")
    text = table(names, results, seconds, args.lost_against, args.lost_from)
    print(text)
    for name in names:
        for error in results[name]["errors"]:
            print(f"warning: {name}: {error}", file=sys.stderr)
    if args.out:
        faces = sum(len(e["faces"]) for e in labels.values())
        lines = [f"# Face detection on the eval set ({len(labels)} images, {faces} labelled faces)", "",
                 "Matching: greedy by score, IoU >= 0.5. Precision and recall at each method's "
                 "default threshold (0.5); AP@0.5 with VOC all-point interpolation. "
                 "Tag rows: faces found / labelled, and false positives, on images with that tag.", "", text, ""]
        for name in names:
            missed = results[name]["missed"]
            lines.append(f"## {name}: {len(missed)} missed face(s)")
            lines += [f"- {m}" for m in missed] + [""]
            if args.lost_against and name != args.lost_against:
                gone = lost(results, args.lost_against, name, args.lost_from)
                lines.append(f"Faces >= {args.lost_from:g} px that {args.lost_against} found and {name} missed: {len(gone)}")
                lines += [f"- {m}" for m in gone] + [""]
            if results[name]["errors"]:
                lines += ["Errors:"] + [f"- {e}" for e in results[name]["errors"]] + [""]
        args.out.write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
