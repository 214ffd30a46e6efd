#!/usr/bin/python3
"""Checks a grid of --ram-kb x --flash-kb plans measured on the board: each
object fits its flash budget; under one --ram-kb, a smaller flash budget
never gives fewer cycles (vmcu-prof); every plan's output is the first's.
Arguments: DIR RAM,... KIB,... (budgets in decreasing order); DIR holds
RAM-KIB.run (vmcu-run's line), RAM-KIB.prof (vmcu-prof's) and RAM-KIB.bin
(the output) for each point."""
import os
import re
import sys

folder, rams, budgets = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
ok = True
first_output = None
for ram in rams:
    previous = None
    plans = set()
    for kib in budgets:
        stem = os.path.join(folder, f"{ram}-{kib}")
        flash = int(re.search(r" flash=(\d+) B", open(stem + ".run").read()).group(1))
        cycles = int(re.search(r" cycles=(\d+)", open(stem + ".prof").read()).group(1))
        output = open(stem + ".bin", "rb").read()
        print(f"ram-kb={ram} flash-kb={kib}: flash={flash} cycles={cycles}")
        if flash > int(kib) * 1024:
            print(f"  flash {flash} over the budget")
            ok = False
        if previous is not None and cycles < previous:
            print(f"  fewer cycles than the larger budget's {previous}")
            ok = False
        first_output = first_output or output
        if output != first_output:
            print("  output differs from the first plan's")
            ok = False
        previous = cycles
        plans.add(flash)
    print(f"ram-kb={ram}: {len(plans)} distinct plans")
print(f"points={len(rams) * len(budgets)} monotonic={'yes' if ok else 'no'}")
sys.exit(0 if ok else 1)
