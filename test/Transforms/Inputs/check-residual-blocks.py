"""Checks the memory report's residual blocks (see
vmcu-solve-offsets-residual-blocks.test): each block's bound is below its
three-tensor need, and the arena is within the pool rounding's 1/8 of the
largest of the blocks' bounds and the other kernels' footprints."""
import json
import sys

# vmcu-select-segment-sizes' kMaxWrapOverhead: the pool's rounding may add
# up to 1/8 of the largest footprint.
MAX_WRAP_OVERHEAD = 8

report = json.load(open(sys.argv[1]))
layers = [l["name"] for l in report["layers"]]
blocks = report["residual_blocks"]
print(f"{len(blocks)} residual blocks")
in_blocks = set()
for b in blocks:
    in_blocks.update(layers[layers.index(b["first"]):layers.index(b["last"]) + 1])
    if b["bound_bytes"] >= b["tensor_level_bytes"]:
        print(f"error: {b['last']}: bound {b['bound_bytes']} not below the "
              f"tensor-level {b['tensor_level_bytes']}")
need = max([b["bound_bytes"] for b in blocks] +
           [l["footprint_bytes"] for l in report["layers"]
            if l["name"] not in in_blocks])
arena = report["peak_ram_bytes"]
if arena > need + need // MAX_WRAP_OVERHEAD:
    print(f"error: arena {arena} above {need} + 1/{MAX_WRAP_OVERHEAD}")
print(f"arena {arena} within the rounding of {need}")
