#!/usr/bin/env bash
# cycles.sh - MACs per estimated cycle of vmcu kernels on the Cortex-M4,
# from vmcu-prof's timing model (tools/vmcu-prof, docs/tools/vmcu-prof.md),
# for the four kernels of bench/latency.sh, plus vmcu-prof's per-function and
# per-class breakdown of one of them.
#
# vmcu-run compiles, links and runs each model on QEMU (for its output and
# --icount instruction count); vmcu-prof runs the same ELF on unicorn and
# counts instructions exactly and cycles with the Cortex-M4 TRM's
# instruction timings, zero-wait-state memory. The reference points
# (CMSIS-NN ~0.42 MAC/cycle pointwise, ~0.10 3x3 depthwise) are estimates
# from the same kind of instruction timings, not measurements.
#
# usage: bench/cycles.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
BUILD="${1:-$ROOT/build}"
GEN="$BUILD/bin/vmcu-gen"
RUN="$BUILD/bin/vmcu-run"
PROF="$BUILD/bin/vmcu-prof"
require_tools "$BUILD" vmcu-gen vmcu-run
[ -x "$PROF" ] || { echo "error: $PROF not built (needs libunicorn-dev and libcapstone-dev; see tools/vmcu-prof/CMakeLists.txt)" >&2; exit 1; }
make_tmp

source "$(dirname "$0")/kernel-cases.sh"

ratio() { /usr/bin/python3 -c "print(f'{$1/$2:.3f}')"; }
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$2"; }

printf "%-24s %9s %12s %12s %10s %9s %9s %9s\n" kernel MACs qemu-icount \
  instructions cycles cyc/instr MAC/instr MAC/cycle
i=0
echo "$CASES" | while IFS='|' read -r name macs args; do
  [ -n "$name" ] || continue
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$GEN" $args --seed=1 -o "$tmp/m$i.mlir" --input="$tmp/in$i.bin"
  qline=$("$RUN" "$tmp/m$i.mlir" --cpu=cortex-m4 --icount --keep-temps="$tmp/k$i" \
    --input "$tmp/in$i.bin" --output "$tmp/qemu$i.bin")
  pline=$("$PROF" "$tmp/k$i/model.elf" --input "$tmp/in$i.bin" --output "$tmp/prof$i.bin")
  cmp -s "$tmp/qemu$i.bin" "$tmp/prof$i.bin" ||
    { echo "error: $name: vmcu-prof's output differs from QEMU's" >&2; exit 1; }
  icount=$(field instructions "$qline")
  instrs=$(field instructions "$pline")
  cycles=$(field cycles "$pline")
  [ -n "$icount" ] && [ -n "$instrs" ] && [ -n "$cycles" ] ||
    { echo "error: no counts in: $qline / $pline" >&2; exit 1; }
  printf "%-24s %9s %12s %12s %10s %9s %9s %9s\n" "$name" "$macs" "$icount" \
    "$instrs" "$cycles" "$(ratio "$cycles" "$instrs")" \
    "$(ratio "$macs" "$instrs")" "$(ratio "$macs" "$cycles")"
done
echo
echo "qemu-icount: vmcu-run --icount (40-instruction resolution); instructions:"
echo "vmcu-prof's exact count; cycles: vmcu-prof's Cortex-M4 estimate."

# The per-function breakdown of a whole chain of layers. vmcu's kernels are
# inlined into vmcu_invoke, so the functions are vmcu_invoke and the libc
# routines it calls; the class table shows where the cycles go.
echo
echo "vmcu-prof --per-function, vmcu-gen --kind=mcunet-vww-chain --seed=1:"
"$GEN" --kind=mcunet-vww-chain --seed=1 -o "$tmp/chain.mlir" --input="$tmp/chain.bin"
"$RUN" "$tmp/chain.mlir" --cpu=cortex-m4 --keep-temps="$tmp/chain" \
  --input "$tmp/chain.bin" > /dev/null
"$PROF" "$tmp/chain/model.elf" --input "$tmp/chain.bin" --per-function
