"""Writes small .tflite models the importer must reject, for its error
tests.

usage: bad_models.py MAKE_TFLITE_PY KIND OUT.tflite
  softmax-zp   a SOFTMAX whose int8 output is not TFLite's (zero point 0
               instead of -128)
  relu-scale   a RELU whose output scale is 2^40 times finer than its
               input's (TFLite's int32 rescale would overflow)
  tanh-zp      a TANH whose int8 output is not TFLite's (zero point 3
               instead of 0)
  hard-swish-scale  a HARD_SWISH whose output scale is finer than the
               input's / 128 (TFLM's Prepare rejects it)
  float-relu   a float32 input read by a RELU instead of a QUANTIZE
  float-no-output  a float32 input read by a QUANTIZE with no output tensor
  mean-axes    a MEAN over the channels (axis -1) of an NHWC tensor
  mean-shift   a MEAN whose output scale is 2^24 times finer than its
               input's: the folded rescale shifts the sum left by 23 bits
  mean-huge-axes  a MEAN whose axes tensor claims 2^30 x 2^30 x 2^30
               entries (scripts/fuzz.sh found the count overflowing)
  resize-bilinear  a RESIZE_BILINEAR, an operator vmcu does not import
"""
import importlib.util
import os
import sys

import numpy as np

# TFLite's BuiltinOperator code of RESIZE_BILINEAR (schema.fbs).
OP_RESIZE_BILINEAR = 23


def main():
    make_tflite, kind, out = sys.argv[1:4]
    sys.path.insert(0, os.path.dirname(make_tflite))  # its tflite_schema
    spec = importlib.util.spec_from_file_location("make_tflite", make_tflite)
    mt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mt)
    m = mt.ModelBuilder(np.random.default_rng(0), f"bad model: {kind}")
    x = m.input((1, 10))
    if kind == "softmax-zp":
        y = m.graph.add_tensor("probs", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(1 / 256)], zero_point=[0])
        m.graph.add_operator(mt.S.OP_SOFTMAX, [x.index], [y], mt.S.OPTIONS_SOFTMAX,
                             [(mt.S.SOFTMAX_BETA, mt.N.Float32Flags, 1.0)])
    elif kind == "relu-scale":
        y = m.graph.add_tensor("relu", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(x.scale / 2.0 ** 40)], zero_point=[0])
        m.graph.add_operator(mt.S.OP_RELU, [x.index], [y], 0)
    elif kind == "tanh-zp":
        y = m.graph.add_tensor("tanh", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(1 / 128)], zero_point=[3])
        m.graph.add_operator(mt.S.OP_TANH, [x.index], [y], 0)
    elif kind == "hard-swish-scale":
        y = m.graph.add_tensor("hs", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(x.scale / 1000)], zero_point=[0])
        m.graph.add_operator(mt.S.OP_HARD_SWISH, [x.index], [y], 0)
    elif kind == "float-no-output":
        f = m.graph.add_tensor("input_float", (1, 10), mt.S.TENSOR_FLOAT32)
        m.graph.inputs = [f]
        m.graph.add_operator(mt.S.OP_QUANTIZE, [f], [], 0)
        y = x.index
    elif kind == "float-relu":
        f = m.graph.add_tensor("input_float", (1, 10), mt.S.TENSOR_FLOAT32)
        m.graph.inputs = [f]
        y = m.graph.add_tensor("relu", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(x.scale)], zero_point=[0])
        m.graph.add_operator(mt.S.OP_RELU, [f], [y], 0)
    elif kind in ("mean-axes", "mean-shift", "mean-huge-axes"):
        x = m.input((1, 2, 2, 4))
        axes = [-1] if kind == "mean-axes" else [1, 2]
        axes_shape = (2 ** 30,) * 3 if kind == "mean-huge-axes" else (len(axes),)
        a = m.graph.add_tensor("axes", axes_shape, mt.S.TENSOR_INT32,
                               data=np.array(axes, dtype="<i4"))
        shape = (1, 2, 2, 1) if kind == "mean-axes" else (1, 1, 1, 4)
        y = m.graph.add_tensor("mean", shape, mt.S.TENSOR_INT8,
                               scale=[np.float32(x.scale / 2.0 ** 24)], zero_point=[0])
        m.graph.add_operator(mt.S.OP_MEAN, [x.index, a], [y], mt.S.OPTIONS_REDUCER,
                             [(mt.S.REDUCER_KEEP_DIMS, mt.N.BoolFlags, True)])
    elif kind == "resize-bilinear":
        y = m.graph.add_tensor("resized", (1, 10), mt.S.TENSOR_INT8,
                               scale=[np.float32(x.scale)], zero_point=[0])
        m.graph.add_operator(OP_RESIZE_BILINEAR, [x.index], [y], 0, version=1)
    else:
        sys.exit(f"unknown kind {kind}")
    m.graph.outputs = [y]
    with open(out, "wb") as f:
        f.write(m.graph.serialize())


if __name__ == "__main__":
    main()
