#!/usr/bin/env python3
"""Runs every case of Arm's CMSIS-NN unit vectors (../shared/cmsis-vectors)
on the emulated board and compares its output with TFLite's.

  run_cmsis_vectors.py VMCU_RUN CASES_DIR WORKDIR

Each case runs `vmcu-run CASE/model.mlir --cpu=cortex-m4 --ring-check
--input CASE/input.bin`; prints one line per case (bit-exact, mismatch, or
the first `error:` line) and `N cases, B bit-exact`.
"""
import concurrent.futures
import os
import subprocess
import sys

WORKERS = 2  # the CI machine's cores


def run(args):
    vmcu_run, case_dir, out = args
    proc = subprocess.run(
        [vmcu_run, os.path.join(case_dir, "model.mlir"), "--cpu=cortex-m4",
         "--ring-check", "--input", os.path.join(case_dir, "input.bin"),
         "--output", out], capture_output=True, text=True)
    name = os.path.basename(case_dir)
    if proc.returncode != 0:
        error = next((l for l in proc.stderr.splitlines() if "error:" in l),
                     proc.stderr.strip()[-200:])
        return name, False, error
    expected = open(os.path.join(case_dir, "expected.bin"), "rb").read()
    same = open(out, "rb").read() == expected
    return name, same, "bit-exact" if same else "output differs from TFLite's"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    vmcu_run, cases, work = sys.argv[1:]
    jobs = [(vmcu_run, os.path.join(cases, c), os.path.join(work, c + ".out"))
            for c in sorted(os.listdir(cases))]
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(run, jobs))
    for name, ok, what in results:
        print(f"{name}: {what}")
    print(f"{len(results)} cases, {sum(ok for _, ok, _ in results)} bit-exact")


if __name__ == "__main__":
    main()
