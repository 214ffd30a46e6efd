#!/usr/bin/python3
"""Rewrites a .tflite file so that its (single) subgraph output is another tensor.

  tflite-set-output.py MODEL.tflite TENSOR_NAME OUT.tflite

Used by tests to run a reference (Arm NN) up to the same tensor as
`vmcu-run --tflite-output=TENSOR_NAME`, e.g. the logits before a SOFTMAX.
Only the output index is patched in place; the file is otherwise unchanged.
"""
import sys

from tflite_patch import TFLiteFile


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    model = TFLiteFile(sys.argv[1])
    model.set_edge("output", model.tensor_index(sys.argv[2]))
    model.write(sys.argv[3])


if __name__ == "__main__":
    main()
