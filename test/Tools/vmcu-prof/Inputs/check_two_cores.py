#!/usr/bin/env python3
"""Compares vmcu-prof's two-core makespan with one core's cycles.

usage: check_two_cores.py ONE_CORE TWO_CORES NO_CONTENTION
  ONE_CORE       a file holding `vmcu-prof: <cpu> cycles=C ...` (core 0
                 does all the work)
  TWO_CORES      a file holding `vmcu-prof: <cpu> cores=2 makespan=M ...`
                 at the default --bus-contention
  NO_CONTENTION  the same with --bus-contention=0: makespan=Z

Checks M < MAX_RATIO * C (the split pays off even with the contention the
default charges) and Z <= M (contention only adds cycles).
prints: two cores ok
"""
import re
import sys

# Two cores on halves of the work, plus the handshake and the contention:
# well under one core's time; 0.6 leaves room above the ideal 0.5.
MAX_RATIO = 0.6


def field(path, name):
    text = open(path).read()
    m = re.search(r"\b%s=(\d+)" % name, text)
    if not m:
        sys.exit("error: no %s= in %s:\n%s" % (name, path, text))
    return int(m.group(1))


def main():
    one, two, zero = sys.argv[1:4]
    cycles = field(one, "cycles")
    makespan = field(two, "makespan")
    uncontended = field(zero, "makespan")
    if not makespan < MAX_RATIO * cycles:
        sys.exit("error: makespan %d is not below %.2f x one core's %d cycles"
                 % (makespan, MAX_RATIO, cycles))
    if not uncontended <= makespan:
        sys.exit("error: --bus-contention=0 gives %d cycles, more than %d"
                 % (uncontended, makespan))
    print("two cores ok")


if __name__ == "__main__":
    main()
