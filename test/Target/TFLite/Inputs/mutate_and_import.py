"""Imports seeded byte-level mutations of a .tflite file and counts crashes.

usage: mutate_and_import.py VMCU_TRANSLATE MODEL COUNT SEED WORKDIR

Each mutation truncates the file, overwrites a 4-byte word with a random or
extreme value, or flips a byte in the first 4 KiB (where the tables and
vtables of a TFLite flatbuffer usually are). vmcu-translate --import-tflite
must either import the model or print `error:` and exit 1; a signal or any
other exit code is a crash. Prints one summary line.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "Inputs"))
from mutation_runs import run_mutations  # noqa: E402

HEADER_BYTES = 4096
EXTREMES = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


def mutate(data, rng):
    data = bytearray(data)
    kind = rng.choice(["truncate", "word", "byte"])
    if kind == "truncate":
        return data[:rng.randrange(0, len(data))]
    if kind == "word":
        at = rng.randrange(0, min(len(data), HEADER_BYTES) - 4) & ~3
        value = rng.choice(EXTREMES + [rng.getrandbits(32)])
        struct.pack_into("<I", data, at, value)
        return data
    at = rng.randrange(8, min(len(data), HEADER_BYTES))
    data[at] ^= 1 << rng.randrange(8)
    return data


def main():
    tool, model, count, seed, workdir = sys.argv[1:6]
    rng = random.Random(int(seed))
    source = open(model, "rb").read()

    def write(i):
        path = f"{workdir}/m{i}.tflite"
        with open(path, "wb") as f:
            f.write(mutate(source, rng))
        return path

    imported, errors, crashes = run_mutations(
        int(count), write,
        lambda path, i: [tool, "--import-tflite", path, "-o", "/dev/null"],
        timeout=120)
    print(f"mutations: {count} imported: {imported} errors: {errors} "
          f"crashes: {crashes}")


if __name__ == "__main__":
    main()
