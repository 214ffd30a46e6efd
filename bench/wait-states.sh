#!/usr/bin/env bash
# wait-states.sh - vmcu and CMSIS-NN on flash with wait states: the same
# .tflite models, the same input, the same cycle model (vmcu-prof) at 0 and
# at N wait states behind an STM32F4-style ART accelerator
# (vmcu-prof --flash-wait-states; docs/tools/vmcu-prof.md).
#
# vmcu: vmcuc's default plan, and the plan compiled for the wait states
# (--flash-wait-states=N, which prices widened weights' extra flash reads).
# CMSIS-NN: ../shared/tools/cmsis-anchor generates its layer-by-layer
# program (--skip-vmcu --whole); this script links that program's model.c
# and cmsis-anchor's CMSIS-NN library with vmcu's runtime harness
# (runtime/harness.c, the mps2-an386 board) so that vmcu-prof runs it as it
# runs vmcu's ELF. At 0 wait states vmcu-prof and cmsis-anchor's own cycle
# model agree to about 1%. Outputs of the two vmcu plans must be identical.
#
# usage: bench/wait-states.sh [--wait-states N] [--work DIR] [BUILD_DIR] [MODEL.tflite...]
#   (default: 5 wait states, an STM32F4 at 168 MHz (RM0090 Table 10); the
#   shared models; --work: cmsis-anchor's work folder, default
#   $TMPDIR/vmcu-wait-states, kept so that CMSIS-NN is built once)
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
WS=5 WORK="${TMPDIR:-/tmp}/vmcu-wait-states" BUILD="$ROOT/build" MODELS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --wait-states) WS="$2"; shift ;;
    --work) WORK="$2"; shift ;;
    -h|--help) print_usage; exit 0 ;;
    *.tflite) MODELS+=("$1") ;;
    *) BUILD="$1" ;;
  esac
  shift
done
ANCHOR="$SHARED/tools/cmsis-anchor"
require_tools "$BUILD" vmcuc vmcu-run vmcu-prof
require_cmsis_anchor "$ANCHOR/cmsis-anchor"
source "$ROOT/bench/shared-models.sh"
if [ ${#MODELS[@]} -eq 0 ]; then
  while IFS='|' read -r file _; do
    [ -n "$file" ] && MODELS+=("$SHARED/models/$file")
  done <<< "$SHARED_MODEL_CASES"
fi
mkdir -p "$WORK"
make_tmp
RT="$ROOT/runtime"
ARCH=(-mcpu=cortex-m4 -mthumb -mfloat-abi=soft)

cycles() { "$BUILD/bin/vmcu-prof" "$1" --input "$2" --max-instructions=0 --flash-wait-states="$3" |
             sed -n 's/.* cycles=\([0-9]*\).*/\1/p'; }
define() { sed -n "s/#define $1 \([0-9]*\)u.*/\1/p" "$2"; }

# cmsis_elf MODEL NAME IN: CMSIS-NN's program for MODEL under vmcu's harness.
cmsis_elf() {
  local model=$1 name=$2 gen="$WORK/build/$2/cmsis" out="$tmp/cmsis"
  "$ANCHOR/cmsis-anchor" "$model" --whole --skip-vmcu --work "$WORK" > "$tmp/anchor.log" 2>&1 ||
    { echo "error: cmsis-anchor failed on $model: $(tail -1 "$tmp/anchor.log")" >&2; return 1; }
  [ -f "$gen/model.c" ] && [ -f "$WORK/build/cmsisnn-lib/libcmsisnn.a" ] ||
    { echo "error: no model.c or libcmsisnn.a in $WORK (cmsis-anchor's layout changed?)" >&2; return 1; }
  mkdir -p "$out"
  # Its arena is static in model.c: made global (as cmsis_arena) for the
  # harness's vmcu_arena.
  sed 's/^static int8_t arena\[/int8_t arena[/; s/\barena\b/cmsis_arena/g' "$gen/model.c" > "$out/model.c"
  local in_off out_off
  in_off=$(sed -n 's/.*model_input(void) { return cmsis_arena + \([0-9]*\); }.*/\1/p' "$out/model.c")
  out_off=$(sed -n 's/.*model_output(void) { return cmsis_arena + \([0-9]*\); }.*/\1/p' "$out/model.c")
  [ -n "$in_off" ] && [ -n "$out_off" ] || { echo "error: $gen/model.c: no model_input()/model_output() at arena offsets" >&2; return 1; }
  local ib ob ab
  ib=$(define MODEL_INPUT_BYTES "$gen/model.h"); ob=$(define MODEL_OUTPUT_BYTES "$gen/model.h")
  ab=$(define MODEL_ARENA_BYTES "$gen/model.h")
  cat > "$out/adapter.c" <<C
#include "model.h"
const unsigned vmcu_input_bytes = $ib, vmcu_output_bytes = $ob, vmcu_arena_bytes = $ab;
const unsigned vmcu_input_count = 1, vmcu_output_count = 1;
const unsigned vmcu_input_offsets[] = {$in_off}, vmcu_input_sizes[] = {$ib};
const unsigned vmcu_output_offsets[] = {$out_off}, vmcu_output_sizes[] = {$ob};
int8_t *vmcu_input(void) { return model_input(); }
const int8_t *vmcu_output(void) { return model_output(); }
int vmcu_invoke(void) { return model_invoke(); }
C
  # cmsis-anchor's flags for model.c (CFLAGS_NN in its run.py).
  arm-none-eabi-gcc "${ARCH[@]}" -O3 -ffunction-sections -fdata-sections -std=c11 -w \
    -I"$ANCHOR/ext/cmsis-nn/Include" -I"$ANCHOR/ext/cmsis6/CMSIS/Core/Include" -I"$gen" \
    -c "$out/model.c" -o "$out/model.o"
  arm-none-eabi-gcc "${ARCH[@]}" -O2 -ffunction-sections -fdata-sections -nostartfiles \
    --specs=nano.specs --specs=nosys.specs -I"$RT" -I"$gen" -Wl,--gc-sections \
    -Wl,--defsym=vmcu_arena=cmsis_arena -T "$RT/boards/mps2-an386.ld" "$RT/startup.c" \
    "$RT/vmcu_runtime.c" "$RT/harness.c" "$out/adapter.c" "$out/model.o" \
    "$WORK/build/cmsisnn-lib/libcmsisnn.a" -lm -o "$out/model.elf"
  echo "$out/model.elf"
}

printf "%-34s %11s %11s %6s %11s %11s %6s %11s %6s %8s %8s\n" model vmcu@0 cmsis@0 ratio \
  "vmcu@${WS}" "cmsis@${WS}" ratio "vmcu-ws@${WS}" ratio flash flash-ws
for model in "${MODELS[@]}"; do
  name=$(basename "$model" .tflite)
  "$BUILD/bin/vmcuc" "$model" -o "$tmp/m.o" --header "$tmp/m.h" > /dev/null
  random_input "$tmp/m.h" "$tmp/in.bin"
  declare -A flash=()
  for plan in 0 "$WS"; do
    line=$("$BUILD/bin/vmcu-run" "$model" --flash-wait-states="$plan" --keep-temps="$tmp/k$plan" \
             --input "$tmp/in.bin" --output "$tmp/out$plan.bin")
    flash[$plan]=$(sed -n 's/.* flash=\([0-9]*\).*/\1/p' <<< "$line")
  done
  cmp -s "$tmp/out0.bin" "$tmp/out$WS.bin" ||
    { echo "error: $name: the --flash-wait-states=$WS plan's output differs" >&2; exit 1; }
  elf=$(cmsis_elf "$model" "$name")
  v0=$(cycles "$tmp/k0/model.elf" "$tmp/in.bin" 0); vw=$(cycles "$tmp/k0/model.elf" "$tmp/in.bin" "$WS")
  c0=$(cycles "$elf" "$tmp/in.bin" 0); cw=$(cycles "$elf" "$tmp/in.bin" "$WS")
  pw=$(cycles "$tmp/k$WS/model.elf" "$tmp/in.bin" "$WS")
  /usr/bin/python3 -c "print(f'{\"$name\":34} {$v0:11} {$c0:11} {$v0/$c0:6.3f} {$vw:11} {$cw:11} {$vw/$cw:6.3f} {$pw:11} {$pw/$cw:6.3f} {${flash[0]}:8} {${flash[$WS]}:8}')"
done
