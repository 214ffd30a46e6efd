#!/usr/bin/env bash
# models.sh - SRAM, flash and instructions of whole real int8 networks
# (the .tflite models in ../shared/models, or $VMCU_SHARED_DIR/models),
# compiled by vmcuc and run once by vmcu-run on the emulated Cortex-M4.
#
# For each model: vmcu's arena (everything the model keeps in SRAM but the
# stack), the stack high-water mark measured on the board (runtime, kernel
# workspace and accumulators), their sum, what a TinyEngine-style tensor-level
# planner needs for the same graph (first fit over tensor lifetimes, in-place
# depthwise; vmcu's memory report), the lower bound max over layers of
# max(in, out), flash (the model object) and executed instructions.
# The MLPerf Tiny models end in SOFTMAX, which vmcu does not compile: they
# run up to their logits (--tflite-output).
#
# WINDOW_CACHE (bytes, default 0) is passed as --window-cache: each fused
# bottleneck whose R*R*Cmid window fits keeps it on the stack (faster, more
# stack, same arena).
#
# usage: bench/models.sh [BUILD_DIR] [WINDOW_CACHE]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
WINDOW_CACHE="${2:-0}"
MODELS="${VMCU_SHARED_DIR:-$ROOT/../shared}/models"
VMCUC="$BUILD/bin/vmcuc"
RUN="$BUILD/bin/vmcu-run"
GEN="$BUILD/bin/vmcu-gen"
for tool in "$VMCUC" "$RUN" "$GEN"; do
  [ -x "$tool" ] || { echo "error: $tool not built; run scripts/test.sh first" >&2; exit 1; }
done
[ -d "$MODELS" ] || { echo "error: no models in $MODELS (set VMCU_SHARED_DIR)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# file | output tensor (empty: the model's output)
CASES="
mcunet-5fps-vww.tflite|
mlperf-tiny-vww-96-int8.tflite|model/dense/MatMul;model/dense/BiasAdd
mlperf-tiny-kws-dscnn-int8.tflite|functional_1/dense/BiasAdd
"

json() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$2"; }

printf "%-34s %8s %7s %8s %12s %11s %9s %13s\n" \
  model arena stack sram tensor_level lower_bound flash instructions
while IFS='|' read -r file output; do
  [ -n "$file" ] || continue
  model="$MODELS/$file"
  extra=(--window-cache="$WINDOW_CACHE")
  [ -n "$output" ] && extra+=(--tflite-output="$output")
  "$VMCUC" "$model" "${extra[@]}" -o "$tmp/m.o" --header="$tmp/m.h" \
    --report="$tmp/r.json" > /dev/null
  # A fixed pseudo-random input of the model's size.
  in_bytes=$(sed -n 's/#define VMCU_INPUT_BYTES \([0-9]*\).*/\1/p' "$tmp/m.h")
  /usr/bin/python3 -c "import random,sys; r=random.Random(1); \
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range($in_bytes)))" > "$tmp/in.bin"
  line=$("$RUN" "$model" "${extra[@]}" --cpu=cortex-m4 --icount \
    --input "$tmp/in.bin" --output "$tmp/out.bin")
  arena=$(json "$tmp/r.json" peak_ram_bytes)
  stack=$(field stack "$line")
  printf "%-34s %8s %7s %8s %12s %11s %9s %13s\n" "$file" "$arena" "$stack" \
    $(( arena + stack )) "$(json "$tmp/r.json" tensor_level_bytes)" \
    "$(json "$tmp/r.json" lower_bound_bytes)" "$(field flash "$line")" \
    "$(field instructions "$line")"
done <<< "$CASES"
