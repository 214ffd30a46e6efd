#!/usr/bin/env bash
# flash.sh - the flash-latency trade of --flash-kb on whole int8 networks
# (the shared .tflite models, or the .tflite files given), on the emulated
# Cortex-M4 timed by vmcu-prof's cycle model.
#
# Per model: the default plan (no budget), then budgets at PERCENTS of its
# flash (default 95 90 80 70 60 50), until no plan fits. Per row: the
# budget, the object's flash (code + weights and tables, the header's
# VMCU_FLASH_BYTES), the layers keeping int8 weights, cycles and MAC/cycle.
# Outputs must be identical across budgets, and a larger budget must never
# give more cycles: either is an error (exit 1).
#
# usage: bench/flash.sh [BUILD_DIR] [MODEL.tflite...]
#        PERCENTS="90 80" bench/flash.sh build
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
shift || true
MODELS_DIR="${VMCU_SHARED_DIR:-$ROOT/../shared}/models"
read -r -a PERCENTS <<< "${PERCENTS:-95 90 80 70 60 50}"
for tool in vmcuc vmcu-run vmcu-prof; do
  [ -x "$BUILD/bin/$tool" ] || { echo "error: $BUILD/bin/$tool not built; run scripts/test.sh first" >&2; exit 1; }
done
source "$ROOT/bench/shared-models.sh"
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  [ -d "$MODELS_DIR" ] || { echo "error: no models in $MODELS_DIR (set VMCU_SHARED_DIR or name models)" >&2; exit 1; }
  while IFS='|' read -r file _; do
    [ -n "$file" ] && models+=("$MODELS_DIR/$file")
  done <<< "$SHARED_MODEL_CASES"
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf "%-34s %8s %9s %6s %12s %8s\n" model flash-kb flash int8 cycles MAC/cyc
for model in "${models[@]}"; do
  name=$(basename "$model")
  default_flash=""
  previous_cycles=""
  for percent in 0 "${PERCENTS[@]}"; do
    budget=0
    [ "$percent" = 0 ] || budget=$(( default_flash * percent / 100 / 1024 ))
    if ! "$BUILD/bin/vmcuc" "$model" --flash-kb="$budget" -o "$tmp/m.o" \
        --header="$tmp/m.h" --report="$tmp/r.json" > /dev/null 2> "$tmp/err"; then
      printf "%-34s %8s  %s\n" "$name" "$budget" "$(grep error: "$tmp/err" | head -1)"
      break
    fi
    [ "$percent" = 0 ] && random_input "$tmp/m.h" "$tmp/in.bin"
    "$BUILD/bin/vmcu-run" "$model" --flash-kb="$budget" --keep-temps="$tmp/k" \
      --input "$tmp/in.bin" --output "$tmp/out.bin" > /dev/null
    [ "$percent" = 0 ] && cp "$tmp/out.bin" "$tmp/first.bin"
    cmp -s "$tmp/out.bin" "$tmp/first.bin" ||
      { echo "error: $name: output with --flash-kb=$budget differs from the default plan's" >&2; exit 1; }
    prof=$("$BUILD/bin/vmcu-prof" "$tmp/k/model.elf" --input "$tmp/in.bin" --max-instructions=0)
    cycles=$(sed -n 's/.* cycles=\([0-9]*\).*/\1/p' <<< "$prof")
    read -r flash int8 macs < <(/usr/bin/python3 - "$tmp/r.json" "$tmp/m.h" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
header = open(sys.argv[2]).read()
flash = int(re.search(r"VMCU_FLASH_BYTES (\d+)u", header).group(1))
assert flash == report["flash_bytes"], "header and report disagree"
print(flash, sum(1 for l in report["layers"] if l.get("int8_weights")),
      sum(l["macs"] for l in report["layers"]))
PY
)
    [ "$percent" = 0 ] && default_flash=$flash
    printf "%-34s %8s %9s %6s %12s %8.3f\n" "$name" "$budget" "$flash" "$int8" "$cycles" \
      "$(/usr/bin/python3 -c "print($macs / $cycles)")"
    if [ -n "$previous_cycles" ] && [ "$cycles" -lt "$previous_cycles" ]; then
      echo "error: $name: --flash-kb=$budget gives fewer cycles ($cycles) than the larger budget before it ($previous_cycles)" >&2
      exit 1
    fi
    previous_cycles=$cycles
  done
done
