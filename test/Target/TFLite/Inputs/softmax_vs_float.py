"""Checks utils/tflite_numpy_ref.py's fixed-point SOFTMAX against a float
softmax of the same rows, rounded to the int8 output grid (scale 1/256,
zero point -128). Prints `rows: N max|fixed - float|: D` and exits 1 if D
exceeds the bound given.

usage: softmax_vs_float.py UTILS_DIR ROWS SEED MAX_DIFF
"""
import random
import sys

import numpy as np


def main():
    utils, rows, seed, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    sys.path.insert(0, utils)
    import tflite_numpy_ref as ref
    rng = random.Random(seed)
    worst = 0
    for _ in range(rows):
        depth = rng.choice([2, 3, 10, 12, 100])
        scale = float(np.float32(rng.choice([0.0039, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0])))
        beta = rng.choice([0.5, 1.0, 2.0])
        row = [rng.randrange(-128, 128) for _ in range(depth)]
        fixed = ref.softmax_row(row, *ref.softmax_params(beta, scale))
        x = np.array(row, float) * scale * beta
        e = np.exp(x - x.max())
        rounded = np.clip(np.round(e / e.sum() * 256) - 128, -128, 127)
        worst = max(worst, int(np.abs(np.array(fixed) - rounded).max()))
    print(f"rows: {rows} max|fixed - float|: {worst}")
    return 0 if worst <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
