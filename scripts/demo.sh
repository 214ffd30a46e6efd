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

# The paper's real model, when ../shared (or $VMCU_SHARED_DIR) has it.
SHARED="${VMCU_SHARED_DIR:-$VMCU_ROOT/../shared}"
TFLITE="$SHARED/models/mcunet-5fps-vww.tflite"
if [ ! -f "$TFLITE" ]; then
  echo "== (skipped: no $TFLITE for the whole-network part)"
  exit 0
fi
echo
echo "== whole network: $TFLITE (80x80x3 -> 2)"
"$BIN/vmcu-gen" --model="$TFLITE" --seed=1 -o /dev/null --input="$OUT/mcunet.in"
"$BIN/vmcuc" "$TFLITE" --cpu=cortex-m4 -o "$OUT/mcunet.o" \
  --report "$OUT/mcunet.json" --memory-svg "$OUT/mcunet.svg"
"$BIN/vmcu-run" "$TFLITE" --cpu=cortex-m4 --ring-check \
  --input "$OUT/mcunet.in" --output "$OUT/mcunet.out" | tee "$OUT/mcunet.run"
echo "== reference: TFLite's integer kernels (utils/tflite_numpy_ref.py)"
/usr/bin/python3 "$VMCU_ROOT/utils/tflite_numpy_ref.py" "$TFLITE" \
  "$OUT/mcunet.in" "$OUT/mcunet.ref"
if cmp "$OUT/mcunet.out" "$OUT/mcunet.ref"; then
  echo "bit-exact: the board's logits equal TFLite's"
else
  echo "error: the board's output differs from the reference" >&2
  exit 1
fi
stack=$(sed -n 's/.* stack=\([0-9]*\) B.*/\1/p' "$OUT/mcunet.run")
/usr/bin/python3 - "$OUT/mcunet.json" "$stack" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
arena, stack = r["peak_ram_bytes"], int(sys.argv[2])
print(f"vmcu arena           {arena:8d} B")
print(f"stack (measured)     {stack:8d} B")
print(f"vmcu SRAM total      {arena + stack:8d} B")
print(f"tensor-level planner {r['tensor_level_bytes']:8d} B  (same graph, in-place depthwise)")
print("anchors: TinyEngine 92 kB, CMSIS-NN/TFLM 220 kB peak SRAM (published)")
PY
echo "ring picture: $OUT/mcunet.svg"

echo "== speed: instructions for one inference per schedule (each checked bit-exact)"
echo "   fused: the paper's kernel everywhere (least RAM); auto: the default"
echo "   (fastest plan in the same arena); --ram-kb=48: spend up to 48 KiB"
for args in "--schedule=fused" "--schedule=auto" "--ram-kb=48"; do
  # shellcheck disable=SC2086
  "$BIN/vmcu-run" "$TFLITE" --cpu=cortex-m4 --icount $args \
    --input "$OUT/mcunet.in" --output "$OUT/mcunet.sched.out" |
    sed "s/^vmcu-run:/$args:/"
  cmp -s "$OUT/mcunet.sched.out" "$OUT/mcunet.ref" ||
    { echo "error: $args changed the output" >&2; exit 1; }
done
