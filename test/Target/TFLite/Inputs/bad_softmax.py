"""Writes a SOFTMAX model whose int8 output is not quantized as TFLite
requires (scale 1/256, zero point -128), for the importer's error test.

usage: bad_softmax.py MAKE_TFLITE_PY OUT.tflite
"""
import importlib.util
import os
import sys

import numpy as np


def main():
    make_tflite, out = sys.argv[1:3]
    sys.path.insert(0, os.path.dirname(make_tflite))  # its tflite_schema
    spec = importlib.util.spec_from_file_location("make_tflite", make_tflite)
    mt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mt)
    m = mt.ModelBuilder(np.random.default_rng(0), "bad softmax")
    x = m.input((1, 10))
    y = m.graph.add_tensor("probs", (1, 10), mt.S.TENSOR_INT8, scale=[np.float32(1 / 256)],
                           zero_point=[0])
    m.graph.add_operator(mt.S.OP_SOFTMAX, [x.index], [y], mt.S.OPTIONS_SOFTMAX,
                         [(mt.S.SOFTMAX_BETA, mt.N.Float32Flags, 1.0)])
    m.graph.outputs = [y]
    with open(out, "wb") as f:
        f.write(m.graph.serialize())


if __name__ == "__main__":
    main()
