#!/usr/bin/python3
"""Checks vmcuc's default flash budget (--cmsis-flash-percent) on MODEL:
- at 0 there is no budget: no note, and the object is the default plan's;
- at 5 percent (a KiB or more) even the smallest plan exceeds the budget: a note says so
  and the object is byte-identical to the default plan's;
- at a percent whose budget lies between the smallest plan (from
  --flash-kb=1's error) and the default plan, a note says vmcuc compiles
  again, and the object fits the budget: KiB of the estimate (the note's)
  times the percent, rounded down.
Usage: check-default-flash-budget.py VMCUC MODEL WORKDIR"""
import json
import math
import os
import re
import subprocess
import sys

vmcuc, model, work = sys.argv[1:4]


def compile_model(name, *flags):
    out = os.path.join(work, name + ".o")
    report = os.path.join(work, name + ".json")
    run = subprocess.run([vmcuc, model, "-o", out, "--report", report, *flags],
                         capture_output=True, text=True)
    flash = None
    if run.returncode == 0:
        flash = json.load(open(report))["flash_bytes"]
    return run, out, flash


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


off, off_obj, default_flash = compile_model("off", "--cmsis-flash-percent=0")
if off.returncode or "note:" in off.stderr:
    fail("--cmsis-flash-percent=0: " + off.stderr)
print(f"default plan: {default_flash} B")

tiny, tiny_obj, tiny_flash = compile_model("tiny", "--cmsis-flash-percent=5")
note = re.search(r"note: the object takes (\d+) B of flash, over the default "
                 r"budget of (\d+) KiB \(5% of the (\d+) B CMSIS-NN would take",
                 tiny.stderr)
if tiny.returncode or not note or "the default plan stays" not in tiny.stderr:
    fail("--cmsis-flash-percent=5: " + tiny.stderr)
reference = int(note.group(3))
if open(tiny_obj, "rb").read() != open(off_obj, "rb").read():
    fail("the object with a budget no plan fits is not the default plan's")
print(f"5%: the default plan stays (CMSIS-NN estimate {reference} B)")

floor_run = subprocess.run([vmcuc, model, "-o", os.path.join(work, "f.o"),
                            "--flash-kb=1"], capture_output=True, text=True)
floor = re.search(r"needs (\d+) B", floor_run.stderr)
if not floor:
    fail("--flash-kb=1 gave no floor: " + floor_run.stderr)
floor = int(floor.group(1))
if default_flash - floor < 2048:
    fail(f"the smallest plan ({floor} B) leaves no KiB below the default")
percent = math.ceil((floor + default_flash) / 2 * 100 / reference)
fit, fit_obj, fit_flash = compile_model("fit", f"--cmsis-flash-percent={percent}")
budget = reference * percent // 100 // 1024 * 1024
if fit.returncode or "compiling again within it" not in fit.stderr:
    fail(f"--cmsis-flash-percent={percent}: " + fit.stderr)
if not fit_flash <= budget < default_flash:
    fail(f"{fit_flash} B against a budget of {budget} B")
print(f"a budget between the smallest and the default plan: fits "
      f"({fit_flash} <= {budget} < {default_flash})")
