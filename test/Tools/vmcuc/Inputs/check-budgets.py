#!/usr/bin/python3
"""Checks memory reports compiled under growing --ram-kb budgets: each
arena fits its budget (0: the first report's arena, the smallest plan) and
the estimated cycles (the sum of each layer's `estimated_cycles`) never
grow with the budget. Arguments: REPORT.json:KIB, in increasing KIB."""
import json
import sys

runs = []
for arg in sys.argv[1:]:
    path, kib = arg.rsplit(":", 1)
    report = json.load(open(path))
    cycles = sum(layer["estimated_cycles"] for layer in report["layers"])
    runs.append((int(kib), report["peak_ram_bytes"], cycles))
smallest = runs[0][1]
ok = True
for kib, arena, cycles in runs:
    budget = kib * 1024 if kib else smallest
    if arena > budget:
        print(f"ram-kb={kib}: arena {arena} over the budget {budget}")
        ok = False
for (k0, _, c0), (k1, _, c1) in zip(runs, runs[1:]):
    if c1 > c0:
        print(f"ram-kb={k1} estimates {c1} cycles, more than ram-kb={k0} ({c0})")
        ok = False
print(f"budgets={len(runs)} monotone={'yes' if ok else 'no'}")
sys.exit(0 if ok else 1)
