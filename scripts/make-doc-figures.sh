#!/usr/bin/env bash
# Regenerates the pictures in docs/ from the current build, and the numbers
# docs/RUNNING.md states beside the report's screenshot:
#   docs/report.png        report.html after `make demo`, in headless chromium at 1200x900
#   docs/demo-astronaut.png the 320x320 crop at (100, 0) of `make demo`'s astronaut.png
#   docs/anonymize-t1.jpg  `anonymize` on sample.tar's t1.jpg, scaled to 640 px wide
#   docs/face-crops-t1.png `face-crops` on t1.jpg: ArcFace 112x112 crops above FFHQ's scaled to 112
# and the caption's `(N entries, N faces, N kept)` from that report.
# Needs the release build and the sample archive (`make demo`, or `make build sample`), chromium, and
# Pillow from .venv-data (`make sample` made it); it runs what `make demo` runs, the pipeline read from
# the Makefile's demo target, with the binary's path relative to the checkout (the report shows it).
# DocNumbersTests checks the caption's numbers against a run of the same pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "make-doc-figures: $*" >&2; exit 2; }
DEMO_OUT="${DEMO_OUT:-demo-out}"
bin="$(realpath --relative-to=. "$(swift build -c release --show-bin-path)/facepipe")"
[ -x "$bin" ] || fail "no release binary at $bin: run make build"
sample=datasets/build/sample.tar
[ -f "$sample" ] || fail "no $sample: run make sample"
python=.venv-data/bin/python
"$python" -c "import PIL" 2>/dev/null || fail "no Pillow in .venv-data: run make sample"
pipeline="$(sed -n 's/.*-s bin-path)" run \([a-z0-9-]*\) $(SAMPLE) .*/\1/p' Makefile)"
[ -n "$pipeline" ] || fail "cannot find the pipeline in the Makefile's demo target"

"$bin" run "$pipeline" "$sample" --out "$DEMO_OUT" --overwrite

chromium=""
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null; then chromium="$(command -v "$name")"; break; fi
done
[ -n "$chromium" ] || fail "chromium is not installed (scripts/install-system-deps.sh installs it)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# report.html as the README shows it: headless chromium, 1200x900 (as root it needs --no-sandbox).
sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(--no-sandbox)
"$chromium" --headless "${sandbox[@]}" --disable-gpu --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1200,900 --screenshot="$work/report.png" \
  "file://$(realpath "$DEMO_OUT")/report.html" 2>/dev/null
[ -s "$work/report.png" ] || { echo "make-doc-figures: chromium wrote no screenshot" >&2; exit 1; }

# t1.jpg alone through `anonymize` and `face-crops`.
tar -xf datasets/build/sample.tar -C "$work" sample/faces/t1.jpg
"$bin" run --pipeline anonymize "$work/sample/faces/t1.jpg" --out "$work/anonymize" --quiet
"$bin" run --pipeline face-crops "$work/sample/faces/t1.jpg" --out "$work/crops" --quiet

"$python" - "$DEMO_OUT" "$work" <<'EOF'
import json, pathlib, re, shutil, sys
from PIL import Image

demo, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
docs = pathlib.Path("docs")

shutil.copyfile(work / "report.png", docs / "report.png")

astronaut = Image.open(demo / "images/sample.tar/sample/faces/astronaut.png.png").convert("RGB")
astronaut.crop((100, 0, 420, 320)).save(docs / "demo-astronaut.png", optimize=True)

anonymized = Image.open(work / "anonymize/images/t1.jpg").convert("RGB")
height = round(anonymized.height * 640 / anonymized.width)
anonymized.resize((640, height), Image.LANCZOS).save(docs / "anonymize-t1.jpg", quality=85)

crops = work / "crops/crops/t1.jpg"
faces = sorted({int(p.name.split(".")[0]) for p in crops.glob("*.arcface.png")})
side, gap = 112, 4
sheet = Image.new("RGB", (len(faces) * side + (len(faces) - 1) * gap, 2 * side + gap), "white")
for column, face in enumerate(faces):
    x = column * (side + gap)
    sheet.paste(Image.open(crops / f"{face}.arcface.png").convert("RGB"), (x, 0))
    ffhq = Image.open(crops / f"{face}.ffhq.png").convert("RGB").resize((side, side), Image.LANCZOS)
    sheet.paste(ffhq, (x, side + gap))
sheet.save(docs / "face-crops-t1.png", optimize=True)

# The numbers the screenshot shows, from the report's own data.
page = (demo / "report.html").read_text(encoding="utf-8")
data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S).group(1)
report = json.loads(data)
entries = sum(outcome["count"] for outcome in report["entriesByOutcome"])
numbers = f"({entries} entries, {report['faces']} faces, {report['keptFaces']} kept)"
running = docs / "RUNNING.md"
text = running.read_text(encoding="utf-8")
caption = re.compile(r"(\*`report\.html` after `make demo`)(?: \(\d+ entries, \d+ faces, \d+ kept\))?")
if not caption.search(text):
    sys.exit("make-doc-figures: docs/RUNNING.md has no caption starting *`report.html` after `make demo`")
running.write_text(caption.sub(lambda m: f"{m.group(1)} {numbers}", text, count=1), encoding="utf-8")
print(f"make-doc-figures: docs/report.png {numbers}, demo-astronaut.png, anonymize-t1.jpg, face-crops-t1.png ({len(faces)} faces)")
EOF
