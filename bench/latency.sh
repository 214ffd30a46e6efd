#!/usr/bin/env bash
# latency.sh - MACs per executed instruction of vmcu kernels on the emulated
# Cortex-M4, measured with QEMU's instruction counter (vmcu-run --icount).
#
# QEMU does not model cycles: the figure is MACs per *instruction*, an upper
# bound on MACs per cycle (SMLAD issues in 1 cycle on the M4, loads take 2).
# The reference points (CMSIS-NN ~0.42 MAC/cycle pointwise, ~0.10 3x3
# depthwise) are estimates from M4 instruction timings, not QEMU runs.
#
# usage: bench/latency.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
GEN="$BUILD/bin/vmcu-gen"
RUN="$BUILD/bin/vmcu-run"
require_tools "$BUILD" vmcu-gen vmcu-run
make_tmp

source "$(dirname "$0")/kernel-cases.sh"

printf "%-24s %10s %12s %10s\n" kernel MACs instructions MAC/instr
echo "$CASES" | while IFS='|' read -r name macs args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  "$GEN" $args --seed=1 -o "$tmp/m.mlir" --input="$tmp/in.bin"
  line=$("$RUN" "$tmp/m.mlir" --cpu=cortex-m4 --icount \
    --input "$tmp/in.bin" --output "$tmp/out.bin")
  instrs=$(sed -n 's/.*instructions=\([0-9]*\).*/\1/p' <<<"$line")
  [ -n "$instrs" ] || { echo "error: no instruction count in: $line" >&2; exit 1; }
  printf "%-24s %10s %12s %10s\n" "$name" "$macs" "$instrs" \
    "$(/usr/bin/python3 -c "print(f'{$macs/$instrs:.3f}')")"
done
