#!/usr/bin/python3
"""Sets the scale of a .tflite's input or output, keeping its arithmetic.

  tflite-set-edge-scale.py MODEL.tflite input|output SCALE OUT.tflite

The named edge's scale becomes SCALE and the other edge's is multiplied by
the same factor, so a one-layer model's requantization (input scale *
weight scale / output scale) is unchanged. Used by tests of the header's
float literals (scales such as 1.0, 3e4 or 1e-7, which a trained model
rarely has). Patched in place; the file is otherwise unchanged.
"""
import sys

import numpy as np

from tflite_patch import TFLiteFile


def main():
    if len(sys.argv) != 5 or sys.argv[2] not in ("input", "output"):
        sys.exit(__doc__)
    model = TFLiteFile(sys.argv[1])
    named = model.edge(sys.argv[2])[1]
    other = model.edge("output" if sys.argv[2] == "input" else "input")[1]
    value = np.float32(float(sys.argv[3]))
    factor = float(value) / model.scale(named)
    model.set_scale(other, np.float32(model.scale(other) * factor))
    model.set_scale(named, value)
    model.write(sys.argv[4])


if __name__ == "__main__":
    main()
