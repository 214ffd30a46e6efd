#!/usr/bin/env bash
# shape-grid.sh - vmcu against CMSIS-NN, one layer at a time, over a listed
# grid of shapes (issue 29, item 3): CONV_2D with Cin / Cout from 1 to 256
# (13, 30 and 47 among them: not multiples of 4), square windows 1x1 to 7x7
# and non-square ones up to 10 on a side (1x3, 3x1, 1x10, 10x4, 4x10, ...,
# 1-D convolutions over an H = 1 input), strides 1 and 2, dilation 1 and 2;
# DEPTHWISE_CONV_2D over 1 to 256 channels with the same windows and
# multipliers 1, 2, 4 and 8 (one input channel included); FULLY_CONNECTED
# with 13 to 2048 inputs and outputs, on 1, 4 and 8 rows. Every point is one
# layer of utils/make-tflite.py --layer (seed 1), compiled by vmcuc with its
# defaults and run by ../shared/tools/cmsis-anchor (CMSIS-NN called as
# TFLite Micro's cmsis_nn kernels call it, and vmcu, on one Cortex-M4 cycle
# model, on the same input). bench/shape-grid.py lists the grid and how the
# input size of each point is chosen (`bench/shape-grid.py grid` prints it).
#
# Per point: MACs; cycles of vmcu and CMSIS-NN (the invoke of the one-layer
# model); their MAC/cycle and its ratio (> 1: vmcu faster); vmcu's kernel
# path (the schedule vmcuc's --report names: gemm, dot, im2col, depthwise)
# and CMSIS-NN's kernel; bit-exactness of vmcu's output against the numpy
# TFLM reference and against CMSIS-NN; issue 29's floor for the layer's kind
# (layers of >= 50k MACs: conv, pointwise and FC 0.55 MAC/cycle, depthwise
# 0.20, a depthwise with one input channel 0.55) and BELOW where vmcu is
# under it. Then the slowest point of each kind with its path, MAC/cycle per
# vmcu path, the points below their floor, and the median ratio to CMSIS-NN.
#
# usage: bench/shape-grid.sh [--quick] [-j N] [--work DIR] [--summary] [--list]
#                            [--only REGEX] [BUILD_DIR]
#   (default: the whole grid, 144 points, about 40 min of cmsis-anchor on
#   one core; --quick: 18 points, a few of every kind, a few minutes;
#   -j N: points at once; --work: cmsis-anchor's work folder, kept between
#   runs so CMSIS-NN is built once, default $TMPDIR/vmcu-shape-grid;
#   --summary: print the table of the last results in --work again without
#   running anything; --list: print the grid and exit; --only: run only the
#   points whose name matches, the table shows the last results of all)
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
QUICK="" JOBS=1 WORK="${TMPDIR:-/tmp}/vmcu-shape-grid" BUILD="$ROOT/build" RUN=1 ONLY=.
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=--quick ;;
    -j) JOBS="$2"; shift ;;
    -j*) JOBS="${1#-j}" ;;
    --work) WORK="$2"; shift ;;
    --summary) RUN=0 ;;
    --list) RUN=list ;;
    --only) ONLY="$2"; shift ;;
    -h|--help) print_usage; exit 0 ;;
    *) BUILD="$1" ;;
  esac
  shift
done
PY=/usr/bin/python3
GRID=("$PY" "$ROOT/bench/shape-grid.py")
if [ "$RUN" = list ]; then
  exec "${GRID[@]}" grid $QUICK
fi
ANCHOR="$SHARED/tools/cmsis-anchor/cmsis-anchor"
if [ "$RUN" = 1 ]; then
  require_tools "$BUILD" vmcuc
  require_cmsis_anchor "$ANCHOR"
fi
mkdir -p "$WORK/models" "$WORK/logs"

# run_one NAME SPEC: generate the layer, run cmsis-anchor (CMSIS-NN alone
# where vmcu's side fails), leave results/NAME.json, logs/NAME.log and
# logs/NAME.time (seconds).
run_one() {
  local name=$1 spec=$2 model log start=$SECONDS
  model="$WORK/models/$name.tflite"
  log="$WORK/logs/$name.log"
  "$PY" "$ROOT/utils/make-tflite.py" --layer "$spec" --seed 1 -o "$model"
  rm -f "$WORK/results/$name.json" "$WORK/logs/$name.vmcu-failed"
  if ! "$ANCHOR" "$model" --vmcuc "$BUILD/bin/vmcuc" --work "$WORK" > "$log" 2>&1; then
    # vmcu's side stopped cmsis-anchor (its ELF does not link, ...): CMSIS-NN alone.
    { grep -m1 "overflowed\|will not fit\|rror" "$log" || tail -1 "$log"; } > "$WORK/logs/$name.vmcu-failed"
    "$ANCHOR" "$model" --skip-vmcu --vmcuc "$BUILD/bin/vmcuc" --work "$WORK" >> "$log" 2>&1 || true
  fi
  echo $((SECONDS - start)) > "$WORK/logs/$name.time"
  echo "$name $((SECONDS - start)) s"
}
export -f run_one
export ROOT WORK BUILD ANCHOR PY

if [ "$RUN" = 1 ]; then
  points=$("${GRID[@]}" list $QUICK --only "$ONLY")
  echo "running $(wc -l <<< "$points") points, -j $JOBS, work folder $WORK"
  t0=$SECONDS
  # The first point alone: cmsis-anchor builds CMSIS-NN into WORK once.
  first=$(head -1 <<< "$points")
  [ -n "$first" ] && run_one $first
  tail -n +2 <<< "$points" | xargs -r -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"'
  echo "run time: $((SECONDS - t0)) s"
  echo
fi
"${GRID[@]}" table $QUICK --work "$WORK"
