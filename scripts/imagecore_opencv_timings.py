#!/usr/bin/env python3
"""Single-thread OpenCV timings of the operations `facepipe-probes imagecore` measures, on a 4000x3000 noise image.

Run side by side (same moment, same load):
  FACEPIPE_BENCHMARKS=1 swift build -c release --product facepipe-probes
  "$(FACEPIPE_BENCHMARKS=1 swift build -c release --show-bin-path)/facepipe-probes" imagecore
  .venv/bin/python scripts/imagecore_opencv_timings.py      # needs `make venv` (opencv-python-headless)
"""
import time, math, numpy as np, cv2
cv2.setNumThreads(1)
a = np.random.default_rng(1).integers(0, 256, (3000, 4000, 3), dtype=np.uint8)
def med(f, n=7):
    t = []
    for _ in range(n):
        s = time.perf_counter(); f(); t.append((time.perf_counter() - s) * 1e3)
    return sorted(t)[n // 2]
c, s = math.cos(0.3), math.sin(0.3); k = 900 / 192
M = np.array([[k*c, -k*s, 2000 - 96*k*c + 96*k*s], [k*s, k*c, 1500 - 96*k*s - 96*k*c]])
for name, f in [
    ("rotate 90 CW", lambda: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE)),
    ("rotate 180", lambda: cv2.rotate(a, cv2.ROTATE_180)),
    ("INTER_AREA 1000x750", lambda: cv2.resize(a, (1000, 750), interpolation=cv2.INTER_AREA)),
    ("INTER_AREA 1333x1000", lambda: cv2.resize(a, (1333, 1000), interpolation=cv2.INTER_AREA)),
    ("INTER_AREA 128x96", lambda: cv2.resize(a, (128, 96), interpolation=cv2.INTER_AREA)),
    ("INTER_LINEAR 2000x1500", lambda: cv2.resize(a, (2000, 1500), interpolation=cv2.INTER_LINEAR)),
    ("INTER_LINEAR 6000x4500", lambda: cv2.resize(a, (6000, 4500), interpolation=cv2.INTER_LINEAR)),
    ("letterbox 128 (AREA+pad+float)", lambda: cv2.copyMakeBorder(cv2.resize(a, (128, 96), interpolation=cv2.INTER_AREA), 16, 16, 0, 0, cv2.BORDER_CONSTANT).astype(np.float32) * (2 / 255) - 1),
    ("warpAffine ROI 900->192 (aliased)", lambda: cv2.warpAffine(a, M, (192, 192), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)),
]:
    print("opencv %-36s %8.2f ms" % (name, med(f)))
