#!/usr/bin/env bash
# compile-time.sh - how long vmcuc takes to compile the shared models with
# its default options (issue 31, item 5; a model over the default flash
# budget, --cmsis-flash-percent, compiles several times), and where the
# time goes.
#
# Per model: the object's .text, the median wall time of RUNS compiles
# (default 5, vmcuc's defaults; run it on a quiet machine), and, with
# valgrind installed, callgrind's instruction count, which does not vary
# from run to run, split into the MLIR pipeline (lowerToLLVMDialect),
# translation to LLVM IR with LLVM's O2 (translateAndOptimize) and code
# generation (emitObject); the rest is the import and start-up. The counted
# compile runs with --mlir-disable-threading (the same object), so that
# nested passes are charged to the pipeline and not to pool threads.
# callgrind takes a few minutes per model.
#
# usage: bench/compile-time.sh [BUILD_DIR] [MODEL.tflite...]
#   (default: the three shared models; RUNS=N sets the timed compiles;
#   CALLGRIND=0 skips the instruction counts)
set -euo pipefail
source "$(dirname "$0")/lib-common.sh"
case "${1:-}" in -h|--help) print_usage; exit 0 ;; esac
BUILD="${1:-$ROOT/build}"
[ $# -gt 0 ] && shift
require_tools "$BUILD" vmcuc
RUNS="${RUNS:-5}"
[ "$RUNS" -ge 1 ] 2> /dev/null || { echo "error: RUNS must be 1 or more" >&2; exit 1; }
if [ $# -eq 0 ]; then
  MODELS="$SHARED/models"
  require_models "$MODELS"
  set -- "$MODELS"/mcunet-5fps-vww.tflite "$MODELS"/mlperf-tiny-vww-96-int8.tflite \
         "$MODELS"/mlperf-tiny-kws-dscnn-int8.tflite
fi
COUNT=1
if [ "${CALLGRIND:-1}" = 0 ] || ! command -v valgrind > /dev/null; then
  COUNT=0
fi
make_tmp

# The inclusive instruction count of FUNCTION in callgrind output FILE.
phase() {
  callgrind_annotate --inclusive=yes "$1" 2> /dev/null |
    awk -v f="$2" 'index($0, f "(") { gsub(",", "", $1); print $1; exit }'
}
# N instructions in G; "?" where the count is missing (a stripped vmcuc).
giga() {
  if [ -z "${1:-}" ]; then echo "?"; else awk -v n="$1" 'BEGIN { printf "%.2f", n / 1e9 }'; fi
}

printf "%-36s %9s %8s %9s %9s %9s %9s\n" model text wall_s instr_G mlir_G llvm_o2_G codegen_G
for model in "$@"; do
  name=$(basename "$model")
  walls=()
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    "$BUILD/bin/vmcuc" "$model" -o "$tmp/m.o" > "$tmp/out.txt"
    walls+=("$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')")
  done
  wall=$(printf "%s\n" "${walls[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  text=$(grep -o "([0-9]* bytes .text" "$tmp/out.txt" | grep -o "[0-9]*")
  total=- mlir=- llvm=- codegen=-
  if [ "$COUNT" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
      "$BUILD/bin/vmcuc" "$model" --mlir-disable-threading -o "$tmp/cg.o" > /dev/null 2> "$tmp/cg.log"
    total=$(giga "$(grep -o "refs: *[0-9,]*" "$tmp/cg.log" | tr -d ', ' | cut -d: -f2)")
    mlir=$(giga "$(phase "$tmp/cg.out" mlir::vmcu::lowerToLLVMDialect)")
    llvm=$(giga "$(phase "$tmp/cg.out" mlir::vmcu::translateAndOptimize)")
    codegen=$(giga "$(phase "$tmp/cg.out" mlir::vmcu::emitObject)")
  fi
  printf "%-36s %9s %8s %9s %9s %9s %9s\n" "$name" "$text" "$wall" "$total" "$mlir" "$llvm" "$codegen"
done
