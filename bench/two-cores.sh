#!/bin/bash
# two-cores.sh - --cores=2 against one core on the Cortex-M33, per model:
# vmcu-prof cycles of one core and the two-core makespan, their ratio, the
# arena of both, and whether the outputs are identical.
#
#   bench/two-cores.sh [MODEL.tflite ...]    (tools from $VMCU_BUILD, default build/)
#
# Models: those given, else the MCUNet-style chain (vmcu-gen) and the
# shared .tflite models (../shared/models, or $VMCU_SHARED_DIR) when
# present; e.g. the generality corpus after bench/corpus.sh:
#   bench/two-cores.sh /tmp/vmcu-corpus/models/*.tflite
# The last line sums the ratios up (median, worst). One pseudo-random
# input each (seed 1). One core is linked and run by vmcu-run (QEMU
# mps2-an505) and profiled by vmcu-prof; two cores by vmcu-run --cores=2
# (vmcu-prof --cores=2, bus contention at its default).
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD=${VMCU_BUILD:-$ROOT/build}
BIN=$BUILD/bin
source "$ROOT/bench/shared-models.sh"
make_tmp
WORK=$tmp

# measure NAME MODEL: one table row.
measure() {
  local name=$1 model=$2 d=$WORK/$1
  mkdir -p "$d"
  "$BIN/vmcuc" "$model" --cpu=cortex-m33 -o "$d/h.o" --header "$d/h.h" >/dev/null
  random_input "$d/h.h" "$d/in.bin"
  "$BIN/vmcu-run" "$model" --cpu=cortex-m33 --input "$d/in.bin" \
    --output "$d/one.bin" --report "$d/one.json" --keep-temps "$d/one" >/dev/null
  "$BIN/vmcu-run" "$model" --cpu=cortex-m33 --cores=2 --input "$d/in.bin" \
    --output "$d/two.bin" --report "$d/two.json" > "$d/two.txt" 2>/dev/null
  "$BIN/vmcu-prof" "$d/one/model.elf" --cpu=cortex-m33 --input "$d/in.bin" \
    > "$d/one.txt" 2>/dev/null
  local same=identical
  cmp -s "$d/one.bin" "$d/two.bin" || same=DIFFERENT
  /usr/bin/python3 - "$name" "$d" "$same" <<'PY'
import json, re, sys
name, d, same = sys.argv[1:]
one = int(re.search(r"cycles=(\d+)", open(f"{d}/one.txt").read()).group(1))
two = int(re.search(r"makespan=(\d+)", open(f"{d}/two.txt").read()).group(1))
a1 = json.load(open(f"{d}/one.json"))["peak_ram_bytes"]
a2 = json.load(open(f"{d}/two.json"))["peak_ram_bytes"]
print(f"| {name} | {one:,} | {two:,} | {two / one:.3f} | {a1:,} -> {a2:,} ({a2 / a1:.3f}) | {same} |")
PY
}

echo "| model | one core (cycles) | two cores (makespan) | ratio | arena one -> two | outputs |"
echo "|---|---|---|---|---|---|"
{
  if [ $# -gt 0 ]; then
    for model in "$@"; do
      measure "$(basename "${model%.*}")" "$model"
    done
  else
    "$BIN/vmcu-gen" --kind=mcunet-vww-chain --seed=1 -o "$WORK/chain.mlir"
    measure mcunet-vww-chain "$WORK/chain.mlir"
    for entry in $SHARED_MODEL_CASES; do
      file=${entry%%|*}
      if [ -f "$SHARED/models/$file" ]; then
        measure "${file%.tflite}" "$SHARED/models/$file"
      fi
    done
  fi
} | tee "$WORK/rows.md"
/usr/bin/python3 - "$WORK/rows.md" <<'PY'
import re, statistics, sys
rows = [l.split("|") for l in open(sys.argv[1]) if l.startswith("| ")]
ratios = [float(r[4]) for r in rows]
arenas = [float(re.search(r"\(([\d.]+)\)", r[5]).group(1)) for r in rows]
same = sum(r[6].strip() == "identical" for r in rows)
print(f"{len(rows)} models: makespan/one core median {statistics.median(ratios):.3f}, "
      f"worst {max(ratios):.3f}, <= 0.55 on {sum(x <= 0.55 for x in ratios)}; "
      f"arena worst {max(arenas):.3f}x; outputs identical on {same}")
PY
