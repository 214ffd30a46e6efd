#!/usr/bin/env python3
"""Moves every tensor base of a placed model by -1 and +1 segment and asks
both vmcu-verify-ring and the board's ring checker about each placement.

  mutate_bases.py VMCU_OPT VMCU_RUN PLACED.mlir INPUT.bin WORKDIR

Bases wrap modulo the pool (a base is below the pool's segment count), so
tensors move across the pool's end too. Prints one line per mutation with
both verdicts and the verifier's first error, then a summary line:
`N mutations, A agree, R rejected, E past the end`. A verdict is the exit
code: 0 accepts; the verifier's `vmcu-verify-ring:` error or the board's
"ring-safety violation" rejects; anything else is reported as broken.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

BASE = re.compile(r'(vmcu\.tensor_base %\w+ \{base = )(\d+)( : i64, name = ")([^"]+)"')
POOL = re.compile(r"segment_pool : !vmcu.pool<segments = (\d+)")
WORKERS = 2  # the CI machine's cores


def verdict(cmd, rejected_marker):
    run = subprocess.run(cmd, capture_output=True, text=True)
    text = run.stdout + run.stderr
    if run.returncode == 0:
        return "accept", ""
    line = next((l for l in text.splitlines() if rejected_marker in l), None)
    return ("reject", line.strip()) if line else ("broken", text.strip()[-300:])


def check(job):
    vmcu_opt, vmcu_run, path, inp, out, label = job
    v, why = verdict([vmcu_opt, path, "--vmcu-verify-ring", "-o", os.devnull,
                      "--mlir-print-op-on-diagnostic=false"], "vmcu-verify-ring:")
    r, _ = verdict([vmcu_run, path, "--ring-check", "--input", inp, "--output", out],
                   "ring-safety violation")
    return label, v, r, why


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    vmcu_opt, vmcu_run, placed, inp, work = sys.argv[1:]
    src = open(placed).read()
    units = int(POOL.search(src).group(1))
    jobs = []
    for m in BASE.finditer(src):
        name, base = m.group(4), int(m.group(2))
        for delta in (-1, 1):
            moved = (base + delta) % units
            path = os.path.join(work, f"{name}{delta:+d}.mlir")
            with open(path, "w") as f:
                f.write(src[:m.start(2)] + str(moved) + src[m.end(2):])
            jobs.append((vmcu_opt, vmcu_run, path, inp, path + ".out",
                         f"{name} {base} -> {moved}"))
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(check, jobs))
    agree = rejected = past_end = 0
    for label, v, r, why in results:
        same = v == r and v != "broken"
        agree += same
        rejected += v == "reject"
        past_end += "past the end of the pool" in why
        print(f"{label}: verifier {v}, board {r}{'' if same else ' DISAGREE'}"
              + (f" ({why})" if why else ""))
    print(f"{len(results)} mutations, {agree} agree, {rejected} rejected, "
          f"{past_end} past the end")


if __name__ == "__main__":
    main()
