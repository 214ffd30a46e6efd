#!/usr/bin/env bash
# demo.sh - the README's first command: compile the shipped MCUNet-5fps-VWW
# bottleneck chain (examples/mcunet-vww-chain.mlir), run it on an emulated
# Cortex-M4, check it byte for byte against upstream MLIR's own TOSA
# lowering on the host, and print its RAM next to a tensor-level planner's.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

vmcu_install_deps
vmcu_build >/dev/null
BIN="$BUILD_DIR/bin"
MODEL="$VMCU_ROOT/examples/mcunet-vww-chain.mlir"
OUT="$BUILD_DIR/demo"
rm -rf "$OUT" && mkdir -p "$OUT"

echo "== model: $MODEL"
# The driver and input are generated with the seed the example was made with.
"$BIN/vmcu-gen" --kind=mcunet-vww-chain --seed=1 -o "$OUT/model.mlir" \
  --driver="$OUT/driver.mlir" --input="$OUT/in.bin"
cmp -s "$OUT/model.mlir" "$MODEL" ||
  { echo "error: $MODEL differs from what vmcu-gen generates" >&2; exit 1; }

echo "== vmcuc: compile for cortex-m4"
"$BIN/vmcuc" "$MODEL" --cpu=cortex-m4 -o "$OUT/model.o" \
  --header "$OUT/model.h" --report "$OUT/report.json" \
  --memory-svg "$OUT/ring.svg"

echo "== vmcu-run: run on qemu mps2-an386 (Cortex-M4), ring-safety checks on"
"$BIN/vmcu-run" "$MODEL" --cpu=cortex-m4 --ring-check \
  --input "$OUT/in.bin" --output "$OUT/out.bin"

echo "== reference: upstream MLIR TOSA lowering on the host"
"$VMCU_ROOT/utils/tosa-ref.sh" "$MODEL" "$OUT/driver.mlir" "$OUT/ref.bin"
if cmp "$OUT/out.bin" "$OUT/ref.bin"; then
  echo "bit-exact: $(stat -c %s "$OUT/out.bin") output bytes match the reference"
else
  echo "error: the board's output differs from the reference" >&2
  exit 1
fi

echo "== memory (from $OUT/report.json)"
/usr/bin/python3 - "$OUT/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
arena, tl, lb = r["peak_ram_bytes"], r["tensor_level_bytes"], r["lower_bound_bytes"]
print(f"vmcu arena          {arena:8d} B")
print(f"tensor-level planner{tl:8d} B  (TinyEngine-style, in-place depthwise)")
print(f"lower bound         {lb:8d} B  (largest layer input or output)")
print(f"saving vs tensor-level: {100 * (1 - arena / tl):.1f}%")
if "flash_bytes" in r:
    print(f"flash (model object) {r['flash_bytes']:7d} B")
PY
echo "ring picture: $OUT/ring.svg"
