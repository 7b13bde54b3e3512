#!/usr/bin/env python3
"""The regions deface 1.5 blurs in each image, with its command line's
defaults (CenterFace at threshold 0.2, box grown by --mask-scale 1.3, the
ellipse inside it), found through deface's own functions on the upright
image (the labels are upright; deface itself does not apply EXIF
orientation). One JSON line per image: {"file", "regions": [{"shape":
"ellipse", "box": [x, y, w, h]}]}.

Usage: deface_regions.py FILE...
"""
import contextlib
import json
import sys

import numpy as np
from deface.centerface import CenterFace
from deface.deface import scale_bb

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/eval")
from upright import open_upright  # noqa: E402


def main() -> int:
    with contextlib.redirect_stdout(sys.stderr):  # it prints the execution provider
        centerface = CenterFace(in_shape=None, backend="auto")
    for path in sys.argv[1:]:
        image, error = open_upright(path)
        if error:
            print(json.dumps(error))
            continue
        frame = np.asarray(image)
        dets, _ = centerface(frame, threshold=0.2)
        regions = []
        height, width = frame.shape[:2]
        for det in dets:
            # As deface.anonymize_frame: integer box, scaled, clipped; the ellipse fills it.
            x1, y1, x2, y2 = det[:4].astype(int)
            x1, y1, x2, y2 = scale_bb(x1, y1, x2, y2, 1.3)
            y1, y2 = max(0, y1), min(height - 1, y2)
            x1, x2 = max(0, x1), min(width - 1, x2)
            regions.append({"shape": "ellipse", "box": [int(x1), int(y1), int(x2 - x1), int(y2 - y1)]})
        print(json.dumps({"file": path, "regions": regions}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
