#!/usr/bin/env bash
#===- utils/tosa-ref.sh - host reference output of an int8 TOSA model -----===#
#
# tosa-ref.sh MODEL.mlir DRIVER.mlir OUT.bin
#
# Runs MODEL's @main on the host through upstream MLIR's own TOSA lowering
# (tosa-to-linalg, bufferization, LLVM) with mlir-runner, and writes the int8
# result as raw bytes to OUT.bin. DRIVER.mlir (vmcu-gen --driver) holds
# func @entry, which calls @main on a constant input, casts the i8 result to
# i32 and prints it with printMemrefI32. The two files are concatenated, so
# both hold top-level funcs without a module around them.
#
# The MLIR tools come from $VMCU_LLVM_PREFIX (default /usr/lib/llvm-22):
# bin/mlir-opt, bin/mlir-runner and lib/libmlir_{c_,}runner_utils.so.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 MODEL.mlir DRIVER.mlir OUT.bin" >&2
  exit 2
fi
model=$1 driver=$2 out=$3
prefix=${VMCU_LLVM_PREFIX:-/usr/lib/llvm-22}

# TOSA rescale is lowered with its exact integer apply_scale semantics.
pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,\
tosa-to-arith{include-apply-rescale=true},tosa-to-tensor),\
one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,\
buffer-deallocation-pipeline,expand-strided-metadata,lower-affine,\
convert-scf-to-cf,finalize-memref-to-llvm,convert-to-llvm,\
reconcile-unrealized-casts)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$model" "$driver" > "$tmp/all.mlir"
"$prefix/bin/mlir-opt" "$tmp/all.mlir" --pass-pipeline="$pipeline" \
  -o "$tmp/llvm.mlir"
"$prefix/bin/mlir-runner" "$tmp/llvm.mlir" -e entry -entry-point-result=void \
  -shared-libs="$prefix/lib/libmlir_runner_utils.so,$prefix/lib/libmlir_c_runner_utils.so" \
  > "$tmp/printed.txt"

# printMemrefI32 prints "... sizes = [1, 8, 8, 16] strides = [...] data = "
# and the values in row-major order; every value must be an int8.
/usr/bin/python3 - "$tmp/printed.txt" "$out" <<'PY'
import math, re, sys

text = open(sys.argv[1]).read()
sizes = re.search(r"sizes = \[([-0-9, ]*)\]", text)
data = text.find("data =")
if not sizes or data < 0:
    sys.exit("tosa-ref.sh: no printMemrefI32 output from @entry")
count = math.prod(int(s) for s in sizes.group(1).split(",") if s.strip())
values = [int(v) for v in re.findall(r"-?\d+", text[data + len("data ="):])]
if len(values) != count:
    sys.exit(f"tosa-ref.sh: printed {len(values)} values, expected {count}")
if any(v < -128 or v > 127 for v in values):
    sys.exit("tosa-ref.sh: the result is not int8")
with open(sys.argv[2], "wb") as out:
    out.write(bytes(v & 0xFF for v in values))
PY
