#!/usr/bin/env python3
"""Checks vmcu-prof's counts against vmcu-run --icount's.

usage: check_counts.py PROF_SUMMARY VMCU_RUN_SUMMARY
  PROF_SUMMARY      a file holding `vmcu-prof: <cpu> cycles=C instructions=M status=0`
  VMCU_RUN_SUMMARY  a file holding vmcu-run --icount's line `... instructions=Q`

Checks C >= M (every instruction costs at least a cycle) and
0 <= M - Q < 2 * T: QEMU's figure is virtual time in SysTick ticks of T
instructions (40 at the MPS2 boards' 25 MHz, 50 at the IoTKit boards' 20
MHz for the Cortex-M33; one tick is lost when the counter first reloads),
taken over a window that also holds about ten harness instructions around
the call of vmcu_invoke(), so it lands less than 2 * T below the exact
count (44-66 for the kernels of bench/cycles.sh on the M4; vmcu-prof's
instruction count is checked exactly against a QEMU trace in
exact-icount.test).
prints: counts ok
"""
import re
import sys


def field(path, pattern):
    text = open(path).read()
    m = re.search(pattern, text)
    if not m:
        sys.exit("error: no match for %r in %s:\n%s" % (pattern, path, text))
    return int(m.group(1))


prof, qemu = sys.argv[1:3]
cycles = field(prof, r"vmcu-prof: \S+ cycles=(\d+) ")
instructions = field(prof, r"vmcu-prof: \S+ cycles=\d+ instructions=(\d+) ")
icount = field(qemu, r"instructions=(\d+)")
# Instructions per SysTick tick under -icount shift=0, by core.
tick = 50 if re.search(r"vmcu-prof: cortex-m33 ", open(prof).read()) else 40
errors = []
if cycles < instructions:
    errors.append("cycles %d < instructions %d" % (cycles, instructions))
if not 0 <= instructions - icount < 2 * tick:
    errors.append("vmcu-prof instructions %d vs QEMU --icount %d: difference "
                  "%d outside [0, %d)" % (instructions, icount,
                                          instructions - icount, 2 * tick))
if errors:
    sys.exit("error: " + "; ".join(errors))
print("counts ok")
