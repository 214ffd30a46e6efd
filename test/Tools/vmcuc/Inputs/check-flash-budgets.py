#!/usr/bin/python3
"""Checks memory reports compiled under shrinking --flash-kb budgets: each
object's flash (`flash_bytes`) fits its budget and equals the header's
VMCU_FLASH_BYTES; the layers' code and tables add up to at most the flash;
and the plan's cycles as the flash budget prices them (each layer's
estimated_cycles, plus its int8_weight_cycles where it keeps int8 weights
and its compact_cycles where it is compact) never fall as the budget
shrinks. Prints each plan's layer counts and the loop levels its compact
kernels unroll. The layers chosen need not only grow: a plan gives back the
choices its spare bytes cover, which a larger budget may keep.
Arguments: REPORT.json:HEADER.h:KIB, in decreasing KIB (0: no budget)."""
import json
import re
import sys

ok = True
previous_cycles = None
for arg in sys.argv[1:]:
    report_path, header_path, kib = arg.rsplit(":", 2)
    kib = int(kib)
    report = json.load(open(report_path))
    flash = report["flash_bytes"]
    header = open(header_path).read()
    macro = int(re.search(r"#define VMCU_FLASH_BYTES (\d+)u", header).group(1))
    layers = report["layers"]
    int8 = {l["name"] for l in layers if l["int8_weights"]}
    compact = {l["name"] for l in layers if l["compact"]}
    per_layer = sum(l["code_bytes"] + l["table_bytes"] for l in layers)
    cycles = sum(l["estimated_cycles"]
                 + (l["int8_weight_cycles"] if l["int8_weights"] else 0)
                 + (l["compact_cycles"] if l["compact"] else 0)
                 for l in layers)
    print(f"flash-kb={kib}: flash={flash} int8_layers={len(int8)} "
          f"compact_layers={len(compact)} "
          f"compact_levels={report['compact_levels']}")
    if kib and flash > kib * 1024:
        print(f"flash-kb={kib}: flash {flash} over the budget {kib * 1024}")
        ok = False
    if macro != flash:
        print(f"flash-kb={kib}: header says {macro}, report {flash}")
        ok = False
    if not 0 < per_layer <= flash:
        print(f"flash-kb={kib}: layers add up to {per_layer} of {flash}")
        ok = False
    if previous_cycles is not None and cycles < previous_cycles:
        print(f"flash-kb={kib}: priced at {cycles} cycles, fewer than the "
              f"{previous_cycles} of a larger budget")
        ok = False
    previous_cycles = cycles
print(f"budgets={len(sys.argv) - 1} consistent={'yes' if ok else 'no'}")
sys.exit(0 if ok else 1)
