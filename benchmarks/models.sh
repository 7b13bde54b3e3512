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
# and prints a table of medians and the ratio facepipe / XNNPACK (lower is better; ≤ 1 means faster):
# wall-clock medians, and thread-CPU-time medians (robust when other processes share the cores).
# Each model's three measurements are interleaved in rounds so machine load affects them alike.
# Finally it counts heap allocations per invocation with valgrind (if installed): the difference in
# "total heap usage" between two runs that differ only in the number of invocations.
set -euo pipefail
cd "$(dirname "$0")/.."
ITERATIONS="${1:-100}"
ROUNDS="${ROUNDS:-3}"
PY=.venv/bin/python
# `model bench` is in a benchmark build only (FACEPIPE_BENCHMARKS, Package.swift).
export FACEPIPE_BENCHMARKS=1
swift build -c release --product facepipe > /dev/null
BIN="$(swift build -c release --show-bin-path)/facepipe"
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
times, cpu = [], []
for _ in range(iterations):
    start, cpu_start = time.perf_counter_ns(), time.thread_time_ns()
    interpreter.invoke()
    cpu.append((time.thread_time_ns() - cpu_start) / 1e6)
    times.append((time.perf_counter_ns() - start) / 1e6)
print(f"cpu_median_ms={float(np.median(cpu)):.4f}")
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

printf "%-34s %11s %11s %11s %7s | %11s %11s %11s %7s\n" model facepipe_ms xnnpack_ms builtin_ms ratio fp_cpu_ms xnn_cpu_ms bi_cpu_ms cpu_ratio
for m in "${MODELS[@]}"; do
  model="models/$m.tflite"
  "$PY" "$WORK/make_input.py" "$model" "$WORK/$m.f32" 2>/dev/null
  : > "$WORK/fp" ; : > "$WORK/xn" ; : > "$WORK/bi"; : > "$WORK/fpc" ; : > "$WORK/xnc" ; : > "$WORK/bic"
  record() { local out; out="$(cat)"; echo "$out" | sed -n 's/^median_ms=//p' >> "$WORK/$1"; echo "$out" | sed -n 's/^cpu_median_ms=//p' >> "$WORK/$1c"; }
  for _ in $(seq "$ROUNDS"); do
    "$BIN" model bench "$model" --input "$WORK/$m.f32" --iterations "$ITERATIONS" | record fp
    "$PY" "$WORK/litert_bench.py" "$model" "$WORK/$m.f32" "$ITERATIONS" xnnpack 2>/dev/null | record xn
    "$PY" "$WORK/litert_bench.py" "$model" "$WORK/$m.f32" "$ITERATIONS" builtin 2>/dev/null | record bi
  done
  fp=$(median_of < "$WORK/fp"); xn=$(median_of < "$WORK/xn"); bi=$(median_of < "$WORK/bi")
  fpc=$(median_of < "$WORK/fpc"); xnc=$(median_of < "$WORK/xnc"); bic=$(median_of < "$WORK/bic")
  printf "%-34s %11.3f %11.3f %11.3f %7.2f | %11.3f %11.3f %11.3f %7.2f\n" "$m" "$fp" "$xn" "$bi" \
    "$(awk -v a="$fp" -v b="$xn" 'BEGIN { print a / b }')" "$fpc" "$xnc" "$bic" "$(awk -v a="$fpc" -v b="$xnc" 'BEGIN { print a / b }')"
done

# Heap allocations per invocation: an LD_PRELOAD shim counts malloc/calloc/realloc/posix_memalign
# calls and prints the total at exit; two runs differing only in the number of invocations
# give the per-invocation count as (count(N2) - count(N1)) / (N2 - N1).
cat > "$WORK/count_malloc.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static atomic_long calls;
void *malloc(size_t n) { atomic_fetch_add(&calls, 1); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { atomic_fetch_add(&calls, 1); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { atomic_fetch_add(&calls, 1); return __libc_realloc(p, n); }
int posix_memalign(void **out, size_t align, size_t n) {
  atomic_fetch_add(&calls, 1); *out = __libc_memalign(align, n); return *out ? 0 : 12;
}
__attribute__((destructor)) static void report(void) { fprintf(stderr, "malloc_calls=%ld\n", (long)calls); }
C
if cc -shared -fPIC -O2 -o "$WORK/count_malloc.so" "$WORK/count_malloc.c" 2>/dev/null; then
  echo
  echo "heap allocations per invocation (LD_PRELOAD malloc counter: (calls(1010 invocations) - calls(10)) / 1000):"
  for m in "${MODELS[@]}"; do
    count() { LD_PRELOAD="$WORK/count_malloc.so" "$BIN" model bench "models/$m.tflite" --iterations "$1" --warmup 0 2>&1 >/dev/null \
      | sed -n 's/^malloc_calls=//p'; }
    a=$(count 10); b=$(count 1010)
    printf "  %-34s %s\n" "$m" "$(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / 1000 }')"
  done
fi
