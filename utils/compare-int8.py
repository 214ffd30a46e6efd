#!/usr/bin/python3
"""Compares two raw int8 files element by element.

  compare-int8.py A.bin B.bin [--max-diff N]

Prints `elements: E differ: D max|diff|: M` and exits 1 if the sizes differ
or some element differs by more than N (default 0, i.e. bit-exact).
"""
import sys


def main():
    args = sys.argv[1:]
    max_diff = 0
    if "--max-diff" in args:
        i = args.index("--max-diff")
        max_diff = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = (open(path, "rb").read() for path in args)
    if len(a) != len(b):
        print(f"error: sizes differ: {len(a)} and {len(b)} bytes")
        sys.exit(1)
    signed = lambda v: v - 256 if v > 127 else v
    diffs = [abs(signed(x) - signed(y)) for x, y in zip(a, b)]
    worst = max(diffs, default=0)
    print(f"elements: {len(a)} differ: {sum(d > 0 for d in diffs)} "
          f"max|diff|: {worst}")
    sys.exit(1 if worst > max_diff else 0)


if __name__ == "__main__":
    main()
