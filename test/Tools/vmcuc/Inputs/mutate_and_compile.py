"""Compiles seeded mutations of a model with vmcuc and counts crashes.

usage: mutate_and_compile.py VMCUC MODEL COUNT SEED WORKDIR

Each mutation deletes, duplicates or swaps a line, or bumps a number. vmcuc
must either write the object or print a located `error:` and exit 1; any
other exit (a signal, an assert) is a crash. Prints one summary line.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Inputs"))
from mutation_runs import run_mutations  # noqa: E402


def mutate(lines, rng):
    lines = list(lines)
    j = rng.randrange(1, len(lines) - 1)
    kind = rng.choice(["delete", "duplicate", "swap", "number"])
    if kind == "delete":
        del lines[j]
    elif kind == "duplicate":
        lines.insert(j, lines[j])
    elif kind == "swap":
        lines[j], lines[j + 1] = lines[j + 1], lines[j]
    else:
        delta = rng.choice([1, -1, 7, 1000])
        lines[j] = re.sub(r"\b(\d+)\b", lambda m: str(int(m.group(1)) + delta),
                          lines[j], count=1)
    return lines


def main():
    vmcuc, model, count, seed, workdir = sys.argv[1:6]
    rng = random.Random(int(seed))
    source = open(model).read().split("\n")

    def write(i):
        path = f"{workdir}/m{i}.mlir"
        with open(path, "w") as f:
            f.write("\n".join(mutate(source, rng)))
        return path

    compiled, errors, crashes = run_mutations(
        int(count), write,
        lambda path, i: [vmcuc, path, "-o", f"{workdir}/m{i}.o"], timeout=300)
    print(f"robustness: {compiled} compiled, {errors} errors, "
          f"{crashes} crashes")


if __name__ == "__main__":
    main()
