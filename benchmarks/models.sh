#!/usr/bin/env bash
# Model latency: facepipe's engine vs ai-edge-litert 2.3.0, one thread, same inputs, same run.
#
#   make bench-models            (builds release and the venv first)
#   benchmarks/models.sh [ITERATIONS]
#
# For each of the six models: writes one seeded input tensor (raw float32), then
#   facepipe model bench MODEL --input IN --iterations N        (median of N after 10 warm-ups)
#   litert Interpreter(num_threads=1)                            (default resolver: XNNPACK delegate)
#   litert Interpreter(num_threads=1, BUILTIN_WITHOUT_DEFAULT_DELEGATES)   (TFLite's own kernels)
# and prints a table of medians and the ratio facepipe / XNNPACK (lower is better; ≤ 1 means faster).
# Each model's three measurements are interleaved in rounds so machine load affects them alike.
# Finally it counts heap allocations per invocation with valgrind (if installed): the difference in
# "total heap usage" between two runs that differ only in the number of invocations.
set -euo pipefail
cd "$(dirname "$0")/.."
ITERATIONS="${1:-100}"
ROUNDS="${ROUNDS:-3}"
PY=.venv/bin/python
BIN="$(swift build -c release --show-bin-path)/facepipe"
[[ -x "$BIN" ]] || { echo "build first: swift build -c release --product facepipe" >&2; exit 2; }
[[ -x "$PY" ]] || { echo "make venv first" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

MODELS=(face_detection_short_range face_detection_full_range face_detection_full_range_sparse
        face_detection_back face_landmark iris_landmark)

cat > "$WORK/litert_bench.py" <<'PY'
import sys, time
import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

model, input_path, iterations, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
kwargs = {} if mode == "xnnpack" else {"experimental_op_resolver_type": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES}
interpreter = Interpreter(model_path=model, num_threads=1, **kwargs)
interpreter.allocate_tensors()
detail = interpreter.get_input_details()[0]
interpreter.set_tensor(detail["index"], np.fromfile(input_path, dtype="<f4").reshape(detail["shape"]))
for _ in range(10):
    interpreter.invoke()
times = []
for _ in range(iterations):
    start = time.perf_counter_ns()
    interpreter.invoke()
    times.append((time.perf_counter_ns() - start) / 1e6)
print(f"median_ms={float(np.median(times)):.4f}")
PY

cat > "$WORK/make_input.py" <<'PY'
import sys
import numpy as np
from ai_edge_litert.interpreter import Interpreter
shape = Interpreter(model_path=sys.argv[1]).get_input_details()[0]["shape"]
rng = np.random.default_rng(20261122)
rng.uniform(-1, 1, size=shape).astype("<f4").tofile(sys.argv[2])
PY

median_of() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

printf "%-34s %12s %12s %12s %10s\n" model facepipe_ms xnnpack_ms builtin_ms ratio
for m in "${MODELS[@]}"; do
  model="models/$m.tflite"
  "$PY" "$WORK/make_input.py" "$model" "$WORK/$m.f32" 2>/dev/null
  : > "$WORK/fp" ; : > "$WORK/xn" ; : > "$WORK/bi"
  for _ in $(seq "$ROUNDS"); do
    "$BIN" model bench "$model" --input "$WORK/$m.f32" --iterations "$ITERATIONS" | tail -1 | cut -d= -f2 >> "$WORK/fp"
    "$PY" "$WORK/litert_bench.py" "$model" "$WORK/$m.f32" "$ITERATIONS" xnnpack 2>/dev/null | tail -1 | cut -d= -f2 >> "$WORK/xn"
    "$PY" "$WORK/litert_bench.py" "$model" "$WORK/$m.f32" "$ITERATIONS" builtin 2>/dev/null | tail -1 | cut -d= -f2 >> "$WORK/bi"
  done
  fp=$(median_of < "$WORK/fp"); xn=$(median_of < "$WORK/xn"); bi=$(median_of < "$WORK/bi")
  printf "%-34s %12.3f %12.3f %12.3f %10.2f\n" "$m" "$fp" "$xn" "$bi" "$(awk -v a="$fp" -v b="$xn" 'BEGIN { print a / b }')"
done

if command -v valgrind > /dev/null; then
  echo
  echo "heap allocations per invocation (valgrind memcheck: allocs(12 invocations) - allocs(2 invocations), / 10):"
  for m in face_detection_short_range iris_landmark; do
    count() { valgrind --tool=memcheck "$BIN" model bench "models/$m.tflite" --iterations "$1" --warmup 0 2>&1 \
      | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,; }
    a=$(count 2); b=$(count 12)
    echo "  $m: $(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / 10 }')"
  done
fi
