"""int8_stats.py FILE [--expect-bytes N] [--max-saturated PCT] [--min-distinct N]

Prints the size, saturation and spread of a raw int8 tensor (a tosa_ref.sh
output) and fails when it is the wrong size, mostly saturated or constant.
"""
import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--expect-bytes", type=int)
parser.add_argument("--max-saturated", type=float, default=5.0)
parser.add_argument("--min-distinct", type=int, default=16)
args = parser.parse_args()

data = [b - 256 if b > 127 else b for b in open(args.file, "rb").read()]
saturated = 100.0 * sum(v in (-128, 127) for v in data) / max(1, len(data))
distinct = len(set(data))
print(f"bytes={len(data)} saturated={saturated:.1f}% distinct={distinct}")
ok = (args.expect_bytes is None or len(data) == args.expect_bytes) and \
     saturated <= args.max_saturated and distinct >= args.min_distinct
sys.exit(0 if ok else 1)
