#!/usr/bin/python3
"""make-tflite.py - write small seeded int8 .tflite models for the importer's tests.

  make-tflite.py --kind KIND --seed N -o OUT.tflite [--input-bin IN.bin]
  make-tflite.py --layer OP:KEY=VALUE,... --seed N -o OUT.tflite [--input-bin IN.bin]

Writes a one-subgraph TFLite FlatBuffer (schema version 3, identifier TFL3)
with Debian's python3-flatbuffers low-level Builder; the schema ids live in
tflite_schema.py. Every model is int8, NHWC, batch 1, quantized the way the
TFLite converter quantizes a trained network:

  * weights: symmetric, zero point 0, values in [-127, 127], one scale per
    output channel (quantized_dimension 0 for CONV_2D, 3 for
    DEPTHWISE_CONV_2D); FULLY_CONNECTED has one per-tensor scale, since
    TFLite's int8 FULLY_CONNECTED kernel takes only that;
  * biases: int32 with scale input_scale * weight_scale, zero point 0;
  * activations: one scale and zero point per tensor. Each layer's output
    range is the expected accumulator mean +- RANGE_SIGMAS standard
    deviations over its channels, computed from the layer's real weights and
    the statistics of its input (uniform int8 for the model input, clamped
    normal after each layer); a RELU6 output is [0, min(6, that)] with zero
    point -128, a RELU output [0, that]. PAD, RESHAPE and AVERAGE_POOL_2D
    keep their input's quantization, as TFLite requires; SOFTMAX and
    LOGISTIC write 1/256 with zero point -128, TANH 1/128 with zero point
    0, the only int8 outputs TFLite's kernels compute. MEAN (free to
    requantize) either keeps its input's quantization or takes the range of
    the means. ADD, SUB and MUL requantize to the range of their result;
  * constant operands of ADD, SUB and MUL (a single element, rank 0 to 4,
    or one value per channel): int8 with their own per-tensor scale and
    zero point, over the range of their values and 0, randomly widened.

--input-bin writes a uniform [-128, 127] int8 input of the model's input
shape (raw bytes, NHWC) drawn from the same seed. The kinds are listed by
--help. utils/check-make-tflite.py checks every kind against Arm NN and
utils/tflite_numpy_ref.py.

The corpus-* kinds are the generality corpus of issue 29: families of
real-shaped networks (MobileNetV1 / V2, DS-CNN, ResNet-style stacks, CNN +
FC, FC autoencoders, branches joined by CONCATENATION) whose architecture
each seed draws from the distribution stated in the family's docstring,
within stated bounds (see "the generality corpus" below); utils/corpus.py
lists the corpus' seeds.

--layer builds one parametrized CONV_2D, DEPTHWISE_CONV_2D or
FULLY_CONNECTED instead of a kind (its section below lists the keys);
bench/shape-grid.sh sweeps a grid of them.
"""
import argparse
import sys
import textwrap
import zlib
from dataclasses import dataclass, field

import flatbuffers
import numpy as np
from flatbuffers import number_types as N

import tflite_schema as S

RANGE_SIGMAS = 3.0        # an output's int8 range covers mean +- this many sigmas
RELU6_MAX = 6.0
RELU_MIN_RANGE = 1e-3     # a RELU output holds at least [0, this]
INT8_MIN, INT8_MAX = -128, 127
WEIGHT_MAX = 127          # symmetric weights use [-127, 127]
INPUT_SCALE_RANGE = (0.004, 0.04)
INPUT_ZERO_POINT_MAX = 16
SOFTMAX_OUTPUT_SCALE = np.float32(1.0 / 256)  # what TFLite requires of an int8 SOFTMAX
SOFTMAX_OUTPUT_ZERO_POINT = -128
SOFTMAX_BETA_RANGE = (0.25, 16.0)  # log-uniform; large betas push rows below diff_min
# The fixed int8 output quantizations TFLite's LOGISTIC and TANH kernels assume
# (and the converter writes): (scale, zero point).
LOGISTIC_OUTPUT = (np.float32(1.0 / 256), -128)
TANH_OUTPUT = (np.float32(1.0 / 128), 0)
# Input scales whose int8 range covers the curved part of the functions:
# about [-8, 8] real for LOGISTIC / TANH (from +-5.8 to +-10), about [-6, 6]
# for HARD_SWISH (from +-4.5 to +-7.7), before the random zero point.
SIGMOID_INPUT_SCALE_RANGE = (0.045, 0.08)
HARD_SWISH_INPUT_SCALE_RANGE = (0.035, 0.06)
HARD_SWISH_MIN = -0.375   # x * relu6(x + 3) / 6 at x = -1.5
HARD_SWISH_SLACK = ((1.0, 1.5), (1.0, 1.15))  # random widening of its output's low / high end
TANH_CONV_GAIN = 3.0      # weights of the CONV_2D before TANH: its output holds about +-8
MEAN_RANGE_WIDEN = (1.0, 1.5)  # random widening of a requantizing MEAN's calibrated range
CHANNEL_GAIN_RANGE = (0.5, 2.0)  # spread of the per-output-channel weight magnitudes
BIAS_SIGMA = 0.5          # bias std relative to the accumulator's std
NORMAL_GRID = np.linspace(-6.0, 6.0, 481)  # quadrature points for clamped normals
CONST_RANGE_WIDEN = (0.0, 0.5)  # random widening of each end of a constant's range

INT32_VECTOR = "int32 vector"  # option field kind besides N.Int8Flags / N.Int32Flags
NONE_ACT = S.ACT_NONE  # the default fused activation of the builder's layers


# --- the graph and its FlatBuffer serialization ------------------------------

@dataclass
class Tensor:
    name: str
    shape: tuple
    type: int
    buffer: int
    scale: list = None
    zero_point: list = None
    quantized_dimension: int = 0


@dataclass
class Operator:
    opcode_index: int
    inputs: list
    outputs: list
    options_type: int
    options: list = field(default_factory=list)  # (field id, kind, value)


class Graph:
    """Buffers, tensors and operators of a one-subgraph model."""

    def __init__(self, description):
        self.description = description
        self.buffers = [b""]  # buffer 0: the empty sentinel of non-constant tensors
        self.tensors = []
        self.opcodes = []          # builtin code of each OperatorCode
        self.opcode_versions = []  # and its version
        self.operators = []
        self.inputs = []
        self.outputs = []

    def add_tensor(self, name, shape, ttype, data=None, scale=None, zero_point=None,
                   quantized_dimension=0):
        buffer = 0
        if data is not None:
            buffer = len(self.buffers)
            self.buffers.append(np.ascontiguousarray(data).tobytes())
        self.tensors.append(Tensor(name, tuple(int(d) for d in shape), ttype, buffer,
                                   scale, zero_point, quantized_dimension))
        return len(self.tensors) - 1

    def add_operator(self, code, inputs, outputs, options_type, options=(), version=None):
        """`version` (default INT8_OP_VERSION[code]): an operator of another
        version gets its own OperatorCode, as the converter writes them."""
        version = S.INT8_OP_VERSION[code] if version is None else version
        keys = list(zip(self.opcodes, self.opcode_versions))
        if (code, version) not in keys:
            self.opcodes.append(code)
            self.opcode_versions.append(version)
            keys.append((code, version))
        self.operators.append(Operator(keys.index((code, version)), list(inputs), list(outputs),
                                       options_type, list(options)))

    def serialize(self):
        b = flatbuffers.Builder(4096)
        b.ForceDefaults(True)  # write every field that is set, even if it equals the default
        buffers = [_buffer(b, data) for data in self.buffers]
        tensors = [_tensor(b, t) for t in self.tensors]
        operators = [_operator(b, op) for op in self.operators]
        opcodes = [_opcode(b, code, version)
                   for code, version in zip(self.opcodes, self.opcode_versions)]

        tensor_vec = _offsets(b, tensors)
        inputs = _numbers(b, self.inputs, "<i4")
        outputs = _numbers(b, self.outputs, "<i4")
        operator_vec = _offsets(b, operators)
        name = b.CreateString("main")
        b.StartObject(S.SUBGRAPH_NUM_FIELDS)
        b.PrependUOffsetTRelativeSlot(S.SUBGRAPH_TENSORS, tensor_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.SUBGRAPH_INPUTS, inputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SUBGRAPH_OUTPUTS, outputs, 0)
        b.PrependUOffsetTRelativeSlot(S.SUBGRAPH_OPERATORS, operator_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.SUBGRAPH_NAME, name, 0)
        subgraph = b.EndObject()

        opcode_vec = _offsets(b, opcodes)
        subgraph_vec = _offsets(b, [subgraph])
        desc = b.CreateString(self.description)
        buffer_vec = _offsets(b, buffers)
        b.StartObject(S.MODEL_NUM_FIELDS)
        b.PrependUint32Slot(S.MODEL_VERSION, S.SCHEMA_VERSION, 0)
        b.PrependUOffsetTRelativeSlot(S.MODEL_OPERATOR_CODES, opcode_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.MODEL_SUBGRAPHS, subgraph_vec, 0)
        b.PrependUOffsetTRelativeSlot(S.MODEL_DESCRIPTION, desc, 0)
        b.PrependUOffsetTRelativeSlot(S.MODEL_BUFFERS, buffer_vec, 0)
        b.Finish(b.EndObject(), file_identifier=S.FILE_IDENTIFIER)
        return bytes(b.Output())


def _numbers(b, values, dtype):
    return b.CreateNumpyVector(np.asarray(values, dtype=dtype))


def _offsets(b, offsets):
    b.StartVector(4, len(offsets), 4)
    for off in reversed(offsets):
        b.PrependUOffsetTRelative(off)
    return b.EndVector()


def _buffer(b, data):
    data_vec = None
    if data:
        b.StartVector(1, len(data), S.BUFFER_ALIGNMENT)
        for byte in reversed(data):
            b.PrependUint8(byte)
        data_vec = b.EndVector()
    b.StartObject(S.BUFFER_NUM_FIELDS)
    if data_vec is not None:
        b.PrependUOffsetTRelativeSlot(S.BUFFER_DATA, data_vec, 0)
    return b.EndObject()


def _tensor(b, t):
    quant = None
    if t.scale is not None:
        scale = _numbers(b, t.scale, "<f4")
        zero_point = _numbers(b, t.zero_point, "<i8")
        b.StartObject(S.QUANT_NUM_FIELDS)
        b.PrependUOffsetTRelativeSlot(S.QUANT_SCALE, scale, 0)
        b.PrependUOffsetTRelativeSlot(S.QUANT_ZERO_POINT, zero_point, 0)
        b.PrependInt32Slot(S.QUANT_QUANTIZED_DIMENSION, t.quantized_dimension, 0)
        quant = b.EndObject()
    shape = _numbers(b, t.shape, "<i4")
    name = b.CreateString(t.name)
    b.StartObject(S.TENSOR_NUM_FIELDS)
    b.PrependUOffsetTRelativeSlot(S.TENSOR_SHAPE, shape, 0)
    b.PrependInt8Slot(S.TENSOR_TYPE, t.type, 0)
    b.PrependUint32Slot(S.TENSOR_BUFFER, t.buffer, 0)
    b.PrependUOffsetTRelativeSlot(S.TENSOR_NAME, name, 0)
    if quant is not None:
        b.PrependUOffsetTRelativeSlot(S.TENSOR_QUANTIZATION, quant, 0)
    return b.EndObject()


def _operator(b, op):
    inputs = _numbers(b, op.inputs, "<i4")
    outputs = _numbers(b, op.outputs, "<i4")
    vectors = {fid: _numbers(b, value, "<i4") for fid, kind, value in op.options
               if kind == INT32_VECTOR}
    options = None
    if op.options_type:  # BuiltinOptions NONE: no options table
        b.StartObject(1 + max((fid for fid, _, _ in op.options), default=-1))
        for fid, kind, value in op.options:
            if kind == INT32_VECTOR:
                b.PrependUOffsetTRelativeSlot(fid, vectors[fid], 0)
            else:
                b.PrependSlot(kind, fid, value if kind == N.Float32Flags else int(value), 0)
        options = b.EndObject()
    b.StartObject(S.OPERATOR_NUM_FIELDS)
    b.PrependUint32Slot(S.OPERATOR_OPCODE_INDEX, op.opcode_index, 0)
    b.PrependUOffsetTRelativeSlot(S.OPERATOR_INPUTS, inputs, 0)
    b.PrependUOffsetTRelativeSlot(S.OPERATOR_OUTPUTS, outputs, 0)
    b.PrependUint8Slot(S.OPERATOR_BUILTIN_OPTIONS_TYPE, op.options_type, 0)
    if options is not None:
        b.PrependUOffsetTRelativeSlot(S.OPERATOR_BUILTIN_OPTIONS, options, 0)
    return b.EndObject()


def _opcode(b, code, version):
    b.StartObject(S.OPCODE_NUM_FIELDS)
    b.PrependInt8Slot(S.OPCODE_DEPRECATED_BUILTIN_CODE, code, 0)
    b.PrependInt32Slot(S.OPCODE_VERSION, version, 1)
    b.PrependInt32Slot(S.OPCODE_BUILTIN_CODE, code, 0)
    return b.EndObject()


# --- quantized layers ---------------------------------------------------------

@dataclass
class Act:
    """An int8 activation tensor and the expected per-channel mean and standard
    deviation of the real values it holds."""
    index: int
    shape: tuple
    scale: np.float32
    zero_point: int
    mean: np.ndarray
    std: np.ndarray


def _clamped_normal(mean, std, lo, hi, f=None):
    """Per-channel mean and std of clip(N(mean, std^2), lo, hi), mapped
    through the elementwise function f if given."""
    weights = np.exp(-0.5 * NORMAL_GRID ** 2)
    weights /= weights.sum()
    v = np.clip(mean[:, None] + std[:, None] * NORMAL_GRID, lo, hi)
    if f is not None:
        v = f(v)
    m = v @ weights
    return m, np.sqrt(np.maximum((v ** 2) @ weights - m ** 2, 0.0))


def _quantize_weights(w, axis):
    """Symmetric int8 weights with one float32 scale per index of `axis`
    (all of w if axis is None); returns (int8, scales, dequantized)."""
    reduce = tuple(a for a in range(w.ndim) if a != axis) if axis is not None else None
    scale = np.atleast_1d((np.abs(w).max(axis=reduce) / WEIGHT_MAX).astype(np.float32))
    bshape = [1] * w.ndim
    if axis is not None:
        bshape[axis] = -1
    s = scale.astype(np.float64).reshape(bshape)
    q = np.clip(np.round(w / s), -WEIGHT_MAX, WEIGHT_MAX).astype(np.int8)
    return q, scale, q * s


def _hard_swish(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


def _held_range(x):
    """The real range an int8 Act can hold."""
    return float(x.scale) * (INT8_MIN - x.zero_point), float(x.scale) * (INT8_MAX - x.zero_point)


def _out_size(size, k, stride, padding):
    if padding == S.PADDING_SAME:
        return -(-size // stride)
    return (size - k) // stride + 1


def _window_size(k, stride, kw, stride_w):
    """(kh, kw, sh, sw) of a k x kw window with strides (stride, stride_w);
    kw and stride_w default to k and stride."""
    kw = k if kw is None else kw
    stride_w = stride if stride_w is None else stride_w
    return k, kw, stride, stride_w


def _window_shape(x, kh, kw, sh, sw, padding, channels, dilation=1):
    """The NHWC output shape of a kh x kw window with strides (sh, sw) over x."""
    n, h, w, _ = x.shape
    return (n, _out_size(h, (kh - 1) * dilation + 1, sh, padding),
            _out_size(w, (kw - 1) * dilation + 1, sw, padding), channels)


# Option field ids of the window operators by name, in the order they are written.
CONV_FIELDS = dict(padding=S.CONV_PADDING, stride_w=S.CONV_STRIDE_W, stride_h=S.CONV_STRIDE_H,
                   act=S.CONV_FUSED_ACTIVATION, dilation_w=S.CONV_DILATION_W,
                   dilation_h=S.CONV_DILATION_H)
DW_FIELDS = dict(padding=S.DW_PADDING, stride_w=S.DW_STRIDE_W, stride_h=S.DW_STRIDE_H,
                 mult=S.DW_DEPTH_MULTIPLIER, act=S.DW_FUSED_ACTIVATION,
                 dilation_w=S.DW_DILATION_W, dilation_h=S.DW_DILATION_H)
POOL_FIELDS = dict(padding=S.POOL_PADDING, stride_w=S.POOL_STRIDE_W, stride_h=S.POOL_STRIDE_H,
                   filter_w=S.POOL_FILTER_W, filter_h=S.POOL_FILTER_H,
                   act=S.POOL_FUSED_ACTIVATION)
INT8_FIELDS = ("padding", "act")  # the enum fields; the others are int32


def _window_options(fields, **values):
    """The options (field id, kind, value) of `values`, given by field name,
    in the order of `fields`."""
    return [(fid, N.Int8Flags if name in INT8_FIELDS else N.Int32Flags, values[name])
            for name, fid in fields.items()]


class ModelBuilder:
    """Adds quantized layers to a Graph, drawing weights from one random stream."""

    def __init__(self, rng, description):
        self.rng = rng
        self.graph = Graph(description)
        self.names = {}

    def _name(self, base):
        n = self.names.get(base, 0)
        self.names[base] = n + 1
        return f"{base}{n}"

    def input(self, shape, scale_range=INPUT_SCALE_RANGE, extra=False):
        """The model input (`extra`: one more, after those already there)."""
        scale = np.float32(self.rng.uniform(*scale_range))
        zp = int(self.rng.integers(-INPUT_ZERO_POINT_MAX, INPUT_ZERO_POINT_MAX + 1))
        name = f"input{len(self.graph.inputs)}" if extra else "input"
        index = self.graph.add_tensor(name, shape, S.TENSOR_INT8, scale=[scale],
                                      zero_point=[zp])
        self.graph.inputs = self.graph.inputs + [index] if extra else [index]
        c = shape[-1]
        mean = np.full(c, scale * (-0.5 - zp))  # uniform q in [-128, 127]
        std = np.full(c, scale * np.sqrt((256 ** 2 - 1) / 12))
        return Act(index, tuple(shape), scale, zp, mean, std)

    def output(self, *xs):
        self.graph.outputs = [x.index for x in xs]

    def float_input(self, shape):
        """A float32 model input and the QUANTIZE to int8 that reads it
        (what the TFLite converter writes without an int8 input type)."""
        x = self.input(shape)
        index = self.graph.add_tensor("input_float", shape, S.TENSOR_FLOAT32)
        self.graph.inputs = [index]
        self.graph.add_operator(S.OP_QUANTIZE, [index], [x.index], 0)
        return x

    def float_output(self, x):
        """DEQUANTIZE of x to a float32 model output."""
        index = self.graph.add_tensor("output_float", x.shape, S.TENSOR_FLOAT32)
        self.graph.add_operator(S.OP_DEQUANTIZE, [x.index], [index], 0)
        self.graph.outputs = [index]

    def _activation(self, name, shape, mean, std, act):
        """The output tensor of a layer whose accumulator has the given
        per-channel real mean and std."""
        lo = min(0.0, float((mean - RANGE_SIGMAS * std).min()))
        hi = max(0.0, float((mean + RANGE_SIGMAS * std).max()))
        if act == S.ACT_RELU6:
            lo, hi = 0.0, min(RELU6_MAX, hi)
        elif act == S.ACT_RELU:  # [0, that], zero point -128
            lo, hi = 0.0, max(hi, RELU_MIN_RANGE)
        scale = np.float32((hi - lo) / (INT8_MAX - INT8_MIN))
        zp = int(np.clip(round(INT8_MIN - lo / scale), INT8_MIN, INT8_MAX))
        lo_held, hi_held = scale * (INT8_MIN - zp), scale * (INT8_MAX - zp)
        if act == S.ACT_RELU6:
            lo_held, hi_held = max(lo_held, 0.0), min(hi_held, RELU6_MAX)
        elif act == S.ACT_RELU:
            lo_held = max(lo_held, 0.0)
        m, s = _clamped_normal(mean, std, lo_held, hi_held)
        index = self.graph.add_tensor(name, shape, S.TENSOR_INT8, scale=[scale], zero_point=[zp])
        return Act(index, tuple(shape), scale, zp, m, s)

    def _same_quant(self, name, shape, x, mean, std):
        index = self.graph.add_tensor(name, shape, S.TENSOR_INT8, scale=[x.scale],
                                      zero_point=[x.zero_point])
        return Act(index, tuple(shape), x.scale, x.zero_point, mean, std)

    def _filter(self, shape, fan_in, axis):
        gain = np.exp(self.rng.uniform(*np.log(CHANNEL_GAIN_RANGE), shape[axis]))
        bshape = [1] * len(shape)
        bshape[axis] = -1
        return self.rng.normal(0.0, 1.0 / np.sqrt(fan_in), shape) * gain.reshape(bshape)

    def _weights_and_bias(self, name, x, w, axis, acc_mean, acc_var):
        """Quantizes w with one scale per index of `axis` (the output channel;
        None: per tensor) and adds the weight and bias tensors. acc_mean(wd)
        and acc_var(wd) give the accumulator statistics of the dequantized
        weights wd without bias. Returns the two tensor ids and the
        accumulator's per-channel mean (with the bias) and std."""
        q, w_scale, wd = _quantize_weights(w, axis)
        w_index = self.graph.add_tensor(
            f"{name}/weights", q.shape, S.TENSOR_INT8, data=q, scale=list(w_scale),
            zero_point=[0] * len(w_scale), quantized_dimension=axis or 0)
        mean, std = acc_mean(wd), np.sqrt(acc_var(wd))
        bias_scale = np.float64(x.scale) * w_scale.astype(np.float64)
        bias_real = self.rng.normal(0.0, BIAS_SIGMA, std.shape) * std
        bias = np.round(bias_real / bias_scale).astype("<i4")
        b_index = self.graph.add_tensor(
            f"{name}/bias", bias.shape, S.TENSOR_INT32, data=bias,
            scale=list(bias_scale.astype(np.float32)), zero_point=[0] * len(bias_scale))
        return w_index, b_index, mean + bias * bias_scale, std

    def conv2d(self, x, cout, k, stride, padding, act, gain=1.0, dilation=1, groups=1,
               kw=None, stride_w=None):
        """CONV_2D; `gain` scales the drawn weights (and so the output range);
        `dilation` spaces the taps (the window spans (k - 1) * dilation + 1);
        `groups` > 1 makes it grouped (filter depth cin / groups, output
        channel o reading group o / (cout / groups)). `kw` and `stride_w`
        (default k and stride) make the window k x kw and the strides
        (stride, stride_w) along (H, W)."""
        name = self._name("conv")
        cin = x.shape[3]
        depth = cin // groups
        kh, kw, sh, sw = _window_size(k, stride, kw, stride_w)
        filt = self._filter((cout, kh, kw, depth), kh * kw * depth, axis=0) * gain

        def dense(wd):  # the grouped filter as a dense [cout, kh, kw, cin] one
            if groups == 1:
                return wd
            full = np.zeros((cout, kh, kw, cin))
            for o in range(cout):
                g = o // (cout // groups)
                full[o, :, :, g * depth:(g + 1) * depth] = wd[o]
            return full
        w_index, b_index, mean, std = self._weights_and_bias(
            name, x, filt, 0,
            lambda wd: np.einsum("oijc,c->o", dense(wd), x.mean),
            lambda wd: np.einsum("oijc,c->o", dense(wd) ** 2, x.std ** 2))
        shape = _window_shape(x, kh, kw, sh, sw, padding, cout, dilation)
        options = _window_options(CONV_FIELDS, padding=padding, stride_w=sw, stride_h=sh,
                                  act=act, dilation_w=dilation, dilation_h=dilation)
        y = self._activation(name, shape, mean, std, act)
        self.graph.add_operator(S.OP_CONV_2D, [x.index, w_index, b_index], [y.index],
                                S.OPTIONS_CONV_2D, options)
        return y

    def depthwise(self, x, k, stride, padding, act, mult=1, dilation=1, kw=None,
                  stride_w=None):
        """DEPTHWISE_CONV_2D with depth multiplier `mult` (output channel
        c * mult + m reads input channel c) and `dilation`; `kw` and
        `stride_w` as for conv2d."""
        name = self._name("depthwise")
        c = x.shape[3]
        kh, kw, sh, sw = _window_size(k, stride, kw, stride_w)
        filt = self._filter((1, kh, kw, c * mult), kh * kw, axis=3)
        x_mean, x_std = np.repeat(x.mean, mult), np.repeat(x.std, mult)
        w_index, b_index, mean, std = self._weights_and_bias(
            name, x, filt, 3,
            lambda wd: x_mean * wd.sum(axis=(0, 1, 2)),
            lambda wd: x_std ** 2 * (wd ** 2).sum(axis=(0, 1, 2)))
        shape = _window_shape(x, kh, kw, sh, sw, padding, c * mult, dilation)
        options = _window_options(DW_FIELDS, padding=padding, stride_w=sw, stride_h=sh, mult=mult,
                                  act=act, dilation_w=dilation, dilation_h=dilation)
        y = self._activation(name, shape, mean, std, act)
        self.graph.add_operator(S.OP_DEPTHWISE_CONV_2D, [x.index, w_index, b_index], [y.index],
                                S.OPTIONS_DEPTHWISE_CONV_2D, options)
        return y

    def fully_connected(self, x, units, act=NONE_ACT):
        """FULLY_CONNECTED with a fused activation (default none)."""
        name = self._name("fc")
        fan_in = x.shape[-1]
        filt = self._filter((units, fan_in), fan_in, axis=0)
        w_index, b_index, mean, std = self._weights_and_bias(
            name, x, filt, None,
            lambda wd: wd @ x.mean,
            lambda wd: (wd ** 2) @ (x.std ** 2))
        rows = int(np.prod(x.shape[:-1]))  # TFLite's FC: every leading dim a row
        y = self._activation(name, (rows, units), mean, std, act)
        self.graph.add_operator(S.OP_FULLY_CONNECTED, [x.index, w_index, b_index], [y.index],
                                S.OPTIONS_FULLY_CONNECTED,
                                [(S.FC_FUSED_ACTIVATION, N.Int8Flags, act)])
        return y

    def pad(self, x, p):
        """Spatial zero padding (p: top, bottom, left, right); TFLite's int8
        PAD fills with the zero point."""
        name = self._name("pad")
        top, bottom, left, right = p
        paddings = np.array([[0, 0], [top, bottom], [left, right], [0, 0]], dtype="<i4")
        p_index = self.graph.add_tensor(f"{name}/paddings", paddings.shape, S.TENSOR_INT32,
                                        data=paddings)
        n, h, w, c = x.shape
        y = self._same_quant(name, (n, h + top + bottom, w + left + right, c), x, x.mean, x.std)
        self.graph.add_operator(S.OP_PAD, [x.index, p_index], [y.index], S.OPTIONS_PAD)
        return y

    def const(self, shape, q, scale, zero_point, name=None):
        """An int8 constant tensor of `shape` holding the codes q, with its
        own per-tensor scale and zero point (a constant operand of ADD, SUB
        or MUL). Its statistics are those of its real values along the last
        dimension (std 0 for one value per channel)."""
        q = np.asarray(q, dtype=np.int8).reshape(shape)
        scale, zero_point = np.float32(scale), int(zero_point)
        index = self.graph.add_tensor(name or self._name("const"), shape, S.TENSOR_INT8,
                                      data=q, scale=[scale], zero_point=[zero_point])
        real = (q.astype(np.float64) - zero_point) * float(scale)
        per_channel = real.reshape(-1, shape[-1] if len(shape) else 1)
        return Act(index, tuple(shape), scale, zero_point, per_channel.mean(axis=0),
                   per_channel.std(axis=0))

    def random_const(self, shape, magnitude):
        """A constant of real values magnitude * U(0.25, 1) with random
        signs, quantized per tensor over [min(values, 0), max(values, 0)]
        widened at each end by a random fraction of its span (so the zero
        point falls anywhere, not only at -128 or 127)."""
        values = magnitude * self.rng.uniform(0.25, 1.0, shape) \
            * self.rng.choice([-1.0, 1.0], shape)
        lo, hi = min(0.0, float(np.min(values))), max(0.0, float(np.max(values)))
        span = hi - lo
        lo -= span * self.rng.uniform(*CONST_RANGE_WIDEN)
        hi += span * self.rng.uniform(*CONST_RANGE_WIDEN)
        scale = np.float32((hi - lo) / (INT8_MAX - INT8_MIN))
        zp = int(np.clip(round(INT8_MIN - lo / scale), INT8_MIN, INT8_MAX))
        q = np.clip(np.round(values / float(scale)) + zp, INT8_MIN, INT8_MAX)
        return self.const(shape, q, scale, zp)

    def _binary(self, code, base, a, b, act, options_type, act_field, mean, std, version=None):
        """ADD / SUB / MUL of two Acts (activations or constants), the
        output of their broadcast shape calibrated to the given statistics."""
        name = self._name(base)
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
        y = self._activation(name, shape, mean, std, act)
        if callable(version):
            version = version(y)
        self.graph.add_operator(code, [a.index, b.index], [y.index], options_type,
                                [(act_field, N.Int8Flags, act)], version)
        return y

    def add(self, a, b, act=S.ACT_NONE):
        return self._binary(S.OP_ADD, "add", a, b, act, S.OPTIONS_ADD, S.ADD_FUSED_ACTIVATION,
                            a.mean + b.mean, np.hypot(a.std, b.std))

    def sub(self, a, b, act=S.ACT_NONE):
        """SUB a - b (version 3 when it broadcasts beyond 4 dimensions)."""
        return self._binary(S.OP_SUB, "sub", a, b, act, S.OPTIONS_SUB, S.SUB_FUSED_ACTIVATION,
                            a.mean - b.mean, np.hypot(a.std, b.std),
                            S.sub_int8_version([a.shape, b.shape]))

    def mul(self, a, b, act=S.ACT_NONE):
        """MUL a * b; the output statistics treat a and b as independent
        (version 3 when the rescale a.scale * b.scale / output scale >= 1)."""
        var = (a.std ** 2 + a.mean ** 2) * (b.std ** 2 + b.mean ** 2) - (a.mean * b.mean) ** 2
        return self._binary(S.OP_MUL, "mul", a, b, act, S.OPTIONS_MUL, S.MUL_FUSED_ACTIVATION,
                            a.mean * b.mean, np.sqrt(np.maximum(var, 0.0)),
                            lambda y: S.mul_int8_version(a.scale, b.scale, y.scale))

    def global_avg_pool(self, x):
        """AVERAGE_POOL_2D whose VALID window is the whole map."""
        _, h, w, c = x.shape
        return self._pool(S.OP_AVERAGE_POOL_2D, "avgpool", x, (h, w), (h, w), S.PADDING_VALID,
                          S.ACT_NONE, x.std / np.sqrt(h * w), shape=(1, 1, 1, c))

    def mean(self, x, keep_dims, requantize):
        """MEAN over H and W with the axes as a constant int32 [1, 2] second
        input: what the converter writes for Keras' GlobalAveragePooling2D
        (keep_dims False, output [1, C]; True keeps [1, 1, 1, C]). The output
        keeps x's quantization, or with `requantize` gets its own, calibrated
        to the narrower range of the means (a finer scale and another zero
        point), as the converter quantizes a global average; that range is
        widened by a random factor, so the rescale differs between seeds."""
        name = self._name("mean")
        n, h, w, c = x.shape
        axes = np.array([1, 2], dtype="<i4")
        a_index = self.graph.add_tensor(f"{name}/axis", axes.shape, S.TENSOR_INT32, data=axes)
        shape = (n, 1, 1, c) if keep_dims else (n, c)
        std = x.std / np.sqrt(h * w)
        if requantize:
            widen = self.rng.uniform(*MEAN_RANGE_WIDEN)
            y = self._activation(name, shape, x.mean, std * widen, S.ACT_NONE)
            y.mean, y.std = _clamped_normal(x.mean, std, *_held_range(y))
        else:
            y = self._same_quant(name, shape, x, x.mean, std)
        self.graph.add_operator(S.OP_MEAN, [x.index, a_index], [y.index], S.OPTIONS_REDUCER,
                                [(S.REDUCER_KEEP_DIMS, N.BoolFlags, bool(keep_dims))])
        return y

    def softmax(self, x, beta):
        """SOFTMAX over the last dimension; int8 out with TFLite's fixed
        quantization (scale 1/256, zero point -128)."""
        name = self._name("softmax")
        index = self.graph.add_tensor(name, x.shape, S.TENSOR_INT8,
                                      scale=[SOFTMAX_OUTPUT_SCALE],
                                      zero_point=[SOFTMAX_OUTPUT_ZERO_POINT])
        self.graph.add_operator(S.OP_SOFTMAX, [x.index], [index], S.OPTIONS_SOFTMAX,
                                [(S.SOFTMAX_BETA, N.Float32Flags, float(np.float32(beta)))])
        c = x.shape[-1]
        return Act(index, tuple(x.shape), SOFTMAX_OUTPUT_SCALE, SOFTMAX_OUTPUT_ZERO_POINT,
                   np.full(c, 1.0 / c), np.full(c, 0.5))

    def max_pool(self, x, k, stride, padding, act):
        """MAX_POOL_2D k x k; keeps the input's quantization."""
        return self._pool(S.OP_MAX_POOL_2D, "maxpool", x, (k, k), (stride, stride), padding, act,
                          x.std)

    def avg_pool(self, x, k, stride, padding, act=NONE_ACT):
        """AVERAGE_POOL_2D k x k; keeps the input's quantization (as TFLite
        requires); the output std assumes independent window elements."""
        return self._pool(S.OP_AVERAGE_POOL_2D, "avgpool", x, (k, k), (stride, stride), padding,
                          act, x.std / k)

    def _pool(self, code, base, x, window, stride, padding, act, std, shape=None):
        """MAX_POOL_2D or AVERAGE_POOL_2D (`code`) with a window and strides
        given as (h, w); keeps x's quantization, with the output std `std`.
        `shape`: the output's (default: that of the window over x)."""
        name = self._name(base)
        (kh, kw), (sh, sw) = window, stride
        if shape is None:
            shape = _window_shape(x, kh, kw, sh, sw, padding, x.shape[3])
        y = self._same_quant(name, shape, x, x.mean, std)
        options = _window_options(POOL_FIELDS, padding=padding, stride_w=sw, stride_h=sh,
                                  filter_w=kw, filter_h=kh, act=act)
        self.graph.add_operator(code, [x.index], [y.index], S.OPTIONS_POOL_2D, options)
        return y

    def concat(self, pieces, axis, shared=False):
        """CONCATENATION along `axis` with the first piece's quantization:
        TFLM copies the bytes, and the converter gives the pieces the
        output's quantization (here only the first has it, unless
        `shared`: then every piece, an activation no other operator has
        read yet, is requantized to one scale and zero point covering all
        their ranges, as the converter writes it and as TFLite's int8
        kernel requires)."""
        name = self._name("concat")
        if shared:
            self._share_quantization(pieces)
        first = pieces[0]
        rank = len(first.shape)
        positive = axis + rank if axis < 0 else axis
        shape = list(first.shape)
        shape[positive] = sum(p.shape[positive] for p in pieces)
        channels = positive == rank - 1
        mean = np.concatenate([p.mean for p in pieces]) if channels else first.mean
        std = np.concatenate([p.std for p in pieces]) if channels else first.std
        y = self._same_quant(name, tuple(shape), first, mean, std)
        self.graph.add_operator(S.OP_CONCATENATION, [p.index for p in pieces], [y.index],
                                S.OPTIONS_CONCATENATION,
                                [(S.CONCAT_AXIS, N.Int32Flags, axis),
                                 (S.CONCAT_FUSED_ACTIVATION, N.Int8Flags, S.ACT_NONE)])
        return y

    def _share_quantization(self, pieces):
        """Gives the tensors of `pieces` one quantization over the union of
        the real ranges they hold (their producers requantize to it)."""
        ranges = [_held_range(p) for p in pieces]
        lo, hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
        scale = np.float32((hi - lo) / (INT8_MAX - INT8_MIN))
        zp = int(np.clip(round(INT8_MIN - lo / scale), INT8_MIN, INT8_MAX))
        for p, (p_lo, p_hi) in zip(pieces, ranges):
            tensor = self.graph.tensors[p.index]
            tensor.scale, tensor.zero_point = [scale], [zp]
            p.scale, p.zero_point = scale, zp
            held_lo, held_hi = _held_range(p)
            p.mean, p.std = _clamped_normal(p.mean, p.std, max(held_lo, p_lo), min(held_hi, p_hi))

    def strided_slice(self, x, begin, end, strides, shape, begin_mask=0, end_mask=0,
                      shrink_axis_mask=0):
        """STRIDED_SLICE with constant int32 begin/end/strides; `shape` is
        the output's (what the converter computes); keeps the quantization."""
        name = self._name("strided_slice")
        consts = [self.graph.add_tensor(f"{name}/{what}", (len(begin),), S.TENSOR_INT32,
                                        data=np.array(values, dtype="<i4"))
                  for what, values in (("begin", begin), ("end", end), ("strides", strides))]
        c = shape[-1] if shape else 1
        y = self._same_quant(name, tuple(shape), x, x.mean[:c] if x.mean.size >= c else x.mean,
                             x.std[:c] if x.std.size >= c else x.std)
        self.graph.add_operator(S.OP_STRIDED_SLICE, [x.index] + consts, [y.index],
                                S.OPTIONS_STRIDED_SLICE, [
                                    (S.STRIDED_SLICE_BEGIN_MASK, N.Int32Flags, begin_mask),
                                    (S.STRIDED_SLICE_END_MASK, N.Int32Flags, end_mask),
                                    (S.STRIDED_SLICE_SHRINK_AXIS_MASK, N.Int32Flags,
                                     shrink_axis_mask)])
        return y

    def transpose(self, x, perm):
        """TRANSPOSE with a constant int32 perm; keeps the quantization."""
        name = self._name("transpose")
        p_index = self.graph.add_tensor(f"{name}/perm", (len(perm),), S.TENSOR_INT32,
                                        data=np.array(perm, dtype="<i4"))
        shape = tuple(x.shape[p] for p in perm)
        c = shape[-1]
        mean = x.mean if x.mean.size == c else np.full(c, float(np.mean(x.mean)))
        std = x.std if x.std.size == c else np.full(c, float(np.mean(x.std)))
        y = self._same_quant(name, shape, x, mean, std)
        self.graph.add_operator(S.OP_TRANSPOSE, [x.index, p_index], [y.index],
                                S.OPTIONS_TRANSPOSE)
        return y

    def resize_nearest(self, x, out_h, out_w, align_corners=False, half_pixel_centers=False):
        """RESIZE_NEAREST_NEIGHBOR to [out_h, out_w] (a constant int32 size
        input, as the converter writes); keeps the quantization."""
        name = self._name("resize")
        size = self.graph.add_tensor(f"{name}/size", (2,), S.TENSOR_INT32,
                                     data=np.array([out_h, out_w], dtype="<i4"))
        n, _, _, c = x.shape
        y = self._same_quant(name, (n, out_h, out_w, c), x, x.mean, x.std)
        self.graph.add_operator(S.OP_RESIZE_NEAREST_NEIGHBOR, [x.index, size], [y.index],
                                S.OPTIONS_RESIZE_NEAREST_NEIGHBOR, [
                                    (S.RESIZE_ALIGN_CORNERS, N.BoolFlags, bool(align_corners)),
                                    (S.RESIZE_HALF_PIXEL_CENTERS, N.BoolFlags,
                                     bool(half_pixel_centers))])
        return y

    def slice(self, x, begin, size, shape):
        """SLICE with constant int32 begin and size (-1: to the end)."""
        name = self._name("slice")
        consts = [self.graph.add_tensor(f"{name}/{what}", (len(begin),), S.TENSOR_INT32,
                                        data=np.array(values, dtype="<i4"))
                  for what, values in (("begin", begin), ("size", size))]
        c = shape[-1]
        y = self._same_quant(name, tuple(shape), x, x.mean[:c], x.std[:c])
        self.graph.add_operator(S.OP_SLICE, [x.index] + consts, [y.index], S.OPTIONS_SLICE)
        return y

    def _elementwise(self, code, base, x, quant, options_type, options=(), f=None):
        """A unary int8 operator; `quant` is the output's (scale, zero point),
        None to keep the input's. f, if given, is the real function the
        operator computes, to carry x's statistics through (else they are
        kept)."""
        name = self._name(base)
        scale, zp = quant if quant else (x.scale, x.zero_point)
        index = self.graph.add_tensor(name, x.shape, S.TENSOR_INT8, scale=[np.float32(scale)],
                                      zero_point=[int(zp)])
        self.graph.add_operator(code, [x.index], [index], options_type, options)
        mean, std = x.mean, x.std
        if f is not None:
            mean, std = _clamped_normal(x.mean, x.std, *_held_range(x), f)
        return Act(index, tuple(x.shape), np.float32(scale), int(zp), mean, std)

    def _requant_target(self, x, factor):
        """An output quantization `factor` times coarser than x's, zero point
        moved by a random amount: the op must requantize."""
        zp = int(np.clip(x.zero_point + self.rng.integers(-20, 21), INT8_MIN, INT8_MAX))
        return np.float32(x.scale * factor), zp

    def relu(self, x):
        return self._elementwise(S.OP_RELU, "relu", x, self._requant_target(x, 0.75), 0)

    def relu6(self, x):
        return self._elementwise(S.OP_RELU6, "relu6", x, None, 0)

    def leaky_relu(self, x, alpha):
        return self._elementwise(S.OP_LEAKY_RELU, "leaky_relu", x,
                                 self._requant_target(x, 1.3), S.OPTIONS_LEAKY_RELU,
                                 [(S.LEAKY_RELU_ALPHA, N.Float32Flags, float(np.float32(alpha)))])

    def quantize(self, x):
        return self._elementwise(S.OP_QUANTIZE, "quantize", x, self._requant_target(x, 1.7), 0)

    def logistic(self, x):
        """LOGISTIC; int8 out with TFLite's fixed quantization (1/256, -128)."""
        return self._elementwise(S.OP_LOGISTIC, "logistic", x, LOGISTIC_OUTPUT, 0,
                                 f=lambda v: 1.0 / (1.0 + np.exp(-v)))

    def tanh(self, x):
        """TANH; int8 out with TFLite's fixed quantization (1/128, 0)."""
        return self._elementwise(S.OP_TANH, "tanh", x, TANH_OUTPUT, 0, f=np.tanh)

    def hard_swish(self, x):
        """HARD_SWISH; the output covers x * relu6(x + 3) / 6 over the real
        range x can hold (down to -0.375 at x = -1.5), each end widened by a
        random factor. Its scale is far above input scale / 128, which
        TFLite's int8 kernel needs (output multiplier exponent <= 0)."""
        lo_in, hi_in = _held_range(x)
        ends = _hard_swish(np.array([lo_in, hi_in]))
        lo = min(0.0, float(ends.min()), HARD_SWISH_MIN if lo_in <= -1.5 <= hi_in else 0.0)
        hi = max(0.0, float(ends.max()))
        lo *= self.rng.uniform(*HARD_SWISH_SLACK[0])
        hi *= self.rng.uniform(*HARD_SWISH_SLACK[1])
        scale = np.float32((hi - lo) / (INT8_MAX - INT8_MIN))
        zp = int(np.clip(round(INT8_MIN - lo / scale), INT8_MIN, INT8_MAX))
        return self._elementwise(S.OP_HARD_SWISH, "hard_swish", x, (scale, zp), 0,
                                 f=_hard_swish)

    def squeeze(self, x):
        """SQUEEZE without options: every dimension of size 1 dropped."""
        name = self._name("squeeze")
        y = self._same_quant(name, tuple(d for d in x.shape if d != 1), x, x.mean, x.std)
        self.graph.add_operator(S.OP_SQUEEZE, [x.index], [y.index], 0)
        return y

    def expand_dims(self, x, axis):
        """EXPAND_DIMS with the axis as a constant int32 second input."""
        name = self._name("expand_dims")
        a = self.graph.add_tensor(f"{name}/axis", (1,), S.TENSOR_INT32,
                                  data=np.array([axis], dtype="<i4"))
        shape = x.shape[:axis] + (1,) + x.shape[axis:]
        y = self._same_quant(name, shape, x, x.mean, x.std)
        self.graph.add_operator(S.OP_EXPAND_DIMS, [x.index, a], [y.index], 0)
        return y

    def reshape(self, x, shape):
        """RESHAPE with the new shape both as a constant second input (what
        the TFLite converter writes) and in ReshapeOptions.new_shape."""
        name = self._name("reshape")
        new_shape = np.array(shape, dtype="<i4")
        s_index = self.graph.add_tensor(f"{name}/shape", new_shape.shape, S.TENSOR_INT32,
                                        data=new_shape)
        mean, std = x.mean, x.std
        if shape[-1] != mean.size:  # e.g. a flatten: the statistics of the new last axis
            mean = np.broadcast_to(x.mean, x.shape).reshape(-1, shape[-1])
            std = np.broadcast_to(x.std, x.shape).reshape(-1, shape[-1])
            mean, std = mean.mean(axis=0), np.sqrt((std ** 2).mean(axis=0))
        y = self._same_quant(name, shape, x, mean, std)
        self.graph.add_operator(S.OP_RESHAPE, [x.index, s_index], [y.index], S.OPTIONS_RESHAPE,
                                [(S.RESHAPE_NEW_SHAPE, INT32_VECTOR, list(shape))])
        return y


# --- the kinds ------------------------------------------------------------------

SAME, VALID = S.PADDING_SAME, S.PADDING_VALID
NONE, RELU6 = S.ACT_NONE, S.ACT_RELU6


def kind_conv(m):
    x = m.input((1, 10, 9, 3))
    return m.conv2d(x, 8, 3, 2, SAME, RELU6)


# Depthwise layers before kind_stem_wrapped's stem: each places its output
# a few rows below its input, so the chain runs past the pool's end.
STEM_WRAP_DEPTHWISE_LAYERS = 4


def kind_stem_wrapped(m):
    y = m.input((1, 12, 9, 8))
    for _ in range(STEM_WRAP_DEPTHWISE_LAYERS):
        y = m.depthwise(y, 3, 1, SAME, RELU6)
    y = m.conv2d(y, 3, 1, 1, VALID, NONE)
    return m.conv2d(y, 8, 3, 2, SAME, RELU6)


def kind_stems(m):
    x = m.input((1, 31, 29, 3))
    y = m.conv2d(x, 8, 3, 2, SAME, RELU6)
    y = m.conv2d(m.depthwise(y, 3, 1, SAME, RELU6), 8, 1, 1, VALID, NONE)
    y = m.conv2d(y, 16, 5, 1, VALID, RELU6)
    y = m.conv2d(m.depthwise(y, 5, 2, SAME, RELU6), 8, 1, 1, VALID, NONE)
    y = m.conv2d(y, 12, 7, 2, SAME, RELU6)
    return m.conv2d(m.depthwise(y, 3, 1, VALID, RELU6), 4, 1, 1, VALID, NONE)


def kind_stems_narrow(m):
    x = m.input((1, 20, 17, 3))
    y = m.conv2d(x, 10, 3, 2, SAME, RELU6)
    y = m.conv2d(m.depthwise(y, 3, 1, SAME, RELU6), 5, 1, 1, VALID, NONE)
    y = m.conv2d(y, 6, 3, 1, SAME, RELU6)
    return m.conv2d(m.depthwise(y, 3, 1, VALID, RELU6), 7, 1, 1, VALID, NONE)


def kind_conv1x1(m):
    x = m.input((1, 6, 6, 8))
    return m.conv2d(x, 12, 1, 1, VALID, NONE)


def kind_depthwise(m):
    x = m.input((1, 7, 7, 8))
    return m.depthwise(x, 3, 1, SAME, RELU6)


def kind_depthwise_s2(m):
    x = m.input((1, 9, 9, 8))
    return m.depthwise(m.pad(x, (2, 2, 2, 2)), 5, 2, VALID, RELU6)


def kind_depthwise_mult(m):
    x = m.input((1, 6, 6, 4))
    y = m.depthwise(x, 3, 1, SAME, RELU6, mult=3)
    y = m.conv2d(y, 8, 1, 1, VALID, NONE)
    return m.depthwise(y, 3, 2, VALID, NONE, mult=2)


def kind_depthwise_mult_few(m):
    x = m.input((1, 9, 7, 1))
    y = m.depthwise(x, 3, 2, SAME, RELU6, mult=8)
    y = m.conv2d(y, 3, 1, 1, VALID, NONE)
    return m.depthwise(y, 3, 1, VALID, NONE, mult=2)


def kind_grouped(m):
    x = m.input((1, 6, 6, 8))
    y = m.conv2d(x, 8, 3, 1, SAME, RELU6, groups=2)
    return m.conv2d(y, 12, 1, 1, VALID, NONE, groups=4)


def kind_dilated(m):
    x = m.input((1, 9, 8, 4))
    y = m.conv2d(x, 8, 3, 1, SAME, RELU6, dilation=2)
    y = m.depthwise(y, 3, 1, SAME, NONE, dilation=3)
    return m.depthwise(y, 2, 1, VALID, RELU6, dilation=2)


def kind_conv_pool(m):
    x = m.input((1, 15, 13, 1))
    y = m.avg_pool(m.conv2d(x, 8, 3, 1, VALID, RELU), 2, 2, VALID)
    y = m.avg_pool(m.conv2d(y, 48, 3, 1, SAME, RELU6), 2, 2, VALID)
    return m.avg_pool(m.conv2d(y, 8, 5, 1, SAME, NONE), 2, 2, VALID)


def kind_add(m):
    x = m.input((1, 6, 6, 8))
    y = m.conv2d(m.conv2d(x, 16, 1, 1, VALID, RELU6), 8, 1, 1, VALID, NONE)
    return m.add(x, y)


def kind_sub(m):
    x = m.input((1, 6, 6, 8))
    y = m.conv2d(x, 8, 1, 1, VALID, RELU6)
    z = m.sub(x, y)
    return m.sub(m.conv2d(z, 8, 1, 1, VALID, NONE), z, RELU6)


def kind_mul(m):
    x = m.input((1, 5, 5, 8))
    y = m.mul(x, m.conv2d(x, 8, 1, 1, VALID, NONE))
    return m.mul(m.conv2d(y, 8, 1, 1, VALID, RELU6), y, RELU6)


def kind_se(m):
    x = m.input((1, 6, 6, 16))
    y = m.conv2d(x, 16, 1, 1, VALID, RELU6)
    s = m.mean(y, keep_dims=True, requantize=True)
    s = m.conv2d(s, 4, 1, 1, VALID, RELU6)
    s = m.logistic(m.conv2d(s, 16, 1, 1, VALID, NONE))
    z = m.mul(y, s)
    s2 = m.logistic(m.conv2d(m.mean(z, keep_dims=True, requantize=False), 16, 1, 1,
                             VALID, NONE))
    return m.mul(s2, z, RELU6)


def kind_head(m):
    x = m.input((1, 3, 3, 16))
    return m.fully_connected(m.reshape(m.global_avg_pool(x), (1, 16)), 4)


def kind_mini_mcunet(m):
    x = m.input((1, 16, 16, 3))
    stem = m.conv2d(m.pad(x, (1, 1, 1, 1)), 8, 3, 2, VALID, RELU6)
    expand = m.conv2d(stem, 24, 1, 1, VALID, RELU6)
    dw = m.depthwise(m.pad(expand, (1, 1, 1, 1)), 3, 1, VALID, RELU6)
    block = m.add(stem, m.conv2d(dw, 8, 1, 1, VALID, NONE))
    logits = m.conv2d(m.global_avg_pool(block), 2, 1, 1, VALID, NONE)
    return m.reshape(logits, (1, 2))


def kind_stem_block(m):
    x = m.input((1, 20, 20, 3))
    y = m.conv2d(x, 16, 3, 2, SAME, RELU6)
    y = m.conv2d(m.depthwise(y, 3, 1, SAME, RELU6), 8, 1, 1, VALID, NONE)
    expand = m.conv2d(y, 24, 1, 1, VALID, RELU6)
    dw = m.depthwise(expand, 3, 1, SAME, RELU6)
    return m.add(y, m.conv2d(dw, 8, 1, 1, VALID, NONE))


def kind_maxpool(m):
    x = m.input((1, 9, 9, 8))
    y = m.max_pool(x, 3, 2, SAME, RELU6)
    y = m.conv2d(y, 16, 1, 1, VALID, NONE)
    return m.max_pool(y, 2, 2, VALID, NONE)


def kind_activations(m):
    x = m.input((1, 5, 5, 8))
    y = m.relu(x)
    y = m.conv2d(y, 12, 1, 1, VALID, NONE)
    y = m.quantize(y)
    return m.relu6(y)


def kind_leaky_relu(m):
    x = m.input((1, 5, 5, 8))
    y = m.leaky_relu(x, 0.1)
    return m.leaky_relu(m.conv2d(y, 12, 1, 1, VALID, NONE), 0.3)


def kind_float_edges(m):
    x = m.float_input((1, 5, 5, 8))
    y = m.conv2d(x, 12, 1, 1, VALID, RELU6)
    m.float_output(m.conv2d(y, 6, 1, 1, VALID, NONE))
    return None


def kind_softmax(m):
    x = m.input((1, 3, 37))
    beta = np.exp(m.rng.uniform(*np.log(SOFTMAX_BETA_RANGE)))
    return m.softmax(x, beta)


def kind_classifier(m):
    x = m.input((1, 4, 4, 16))
    logits = m.fully_connected(m.reshape(m.global_avg_pool(x), (1, 16)), 10)
    return m.softmax(logits, 1.0)


def kind_inception(m):
    x = m.input((1, 8, 8, 8))
    b1 = m.conv2d(x, 8, 1, 1, VALID, RELU6)
    b2 = m.conv2d(m.conv2d(x, 4, 1, 1, VALID, RELU6), 8, 3, 1, SAME, RELU6)
    b3 = m.conv2d(m.max_pool(x, 3, 1, SAME, NONE), 4, 1, 1, VALID, RELU6)
    y = m.conv2d(m.concat([b1, b2, b3, x], 3), 16, 1, 1, VALID, RELU6)
    logits = m.fully_connected(m.mean(y, keep_dims=False, requantize=True), 5)
    return m.softmax(logits, 1.0)


def kind_concat_axes(m):
    x = m.input((1, 4, 6, 8))
    a = m.conv2d(x, 8, 1, 1, VALID, RELU6)
    rows = m.concat([x, a], 1)
    cols = m.concat([rows, m.depthwise(rows, 3, 1, SAME, NONE)], -2)
    return m.concat([cols, cols], -1)


def kind_slices(m):
    x = m.input((1, 9, 8, 12))
    # Rows 1, 3, 5, 7 (stride 2, a negative end), columns 2.. (begin mask
    # off, end mask on), channels 4..11.
    a = m.strided_slice(x, [0, 1, 2, 4], [1, -1, 0, 12], [1, 2, 1, 1], (1, 4, 6, 8),
                        end_mask=0b0100)
    b = m.conv2d(a, 8, 1, 1, VALID, RELU6)
    # Every third column, every second channel: one-byte segments.
    c = m.strided_slice(b, [0, 0, 0, 0], [1, 4, 6, 8], [1, 1, 3, 2], (1, 4, 2, 4))
    d = m.slice(x, [0, 2, 3, 0], [-1, 4, 2, -1], (1, 4, 2, 12))
    e = m.concat([c, d], 3)
    # The last row with its axis shrunk away: [1, 2, 16].
    return m.strided_slice(e, [0, -1, 0, 0], [1, 0, 2, 16], [1, 1, 1, 1], (1, 2, 16),
                           shrink_axis_mask=0b0010)


def kind_two_heads(m):
    image = m.input((1, 6, 6, 8))
    extra = m.input((1, 6, 6, 4), extra=True)
    trunk = m.conv2d(m.concat([image, extra], 3), 16, 1, 1, VALID, RELU6)
    boxes = m.reshape(m.conv2d(trunk, 4, 1, 1, VALID, NONE), (1, 36, 4))
    logits = m.fully_connected(m.mean(trunk, keep_dims=False, requantize=True), 3)
    return boxes, m.softmax(logits, 1.0)


def kind_batched(m):
    x = m.input((3, 6, 5, 4))
    y = m.conv2d(x, 8, 3, 1, SAME, RELU6)
    y = m.depthwise(m.pad(y, (1, 1, 1, 1)), 3, 2, VALID, RELU6)
    y = m.max_pool(m.conv2d(y, 8, 1, 1, VALID, NONE), 2, 1, VALID, NONE)
    return m.fully_connected(m.mean(y, keep_dims=False, requantize=True), 4)


def kind_nchw(m):
    x = m.input((1, 3, 10, 9))  # NCHW, as PyTorch exporters write it
    y = m.conv2d(m.transpose(x, (0, 2, 3, 1)), 8, 3, 2, SAME, RELU6)
    # H and W swapped (the innermost dimension stays), then back to NCHW.
    z = m.depthwise(m.transpose(y, (0, 2, 1, 3)), 3, 1, SAME, RELU6)
    return m.transpose(z, (0, 3, 1, 2))


def kind_logistic_tanh(m):
    x = m.input((1, 5, 5, 8), SIGMOID_INPUT_SCALE_RANGE)
    y = m.conv2d(m.logistic(x), 12, 1, 1, VALID, NONE, gain=TANH_CONV_GAIN)
    return m.tanh(y)


def kind_hard_swish(m):
    x = m.input((1, 5, 5, 8), HARD_SWISH_INPUT_SCALE_RANGE)
    y = m.conv2d(m.hard_swish(x), 12, 1, 1, VALID, NONE)
    return m.hard_swish(y)


def kind_mean(m):
    x = m.input((1, 5, 6, 16))
    return m.conv2d(m.mean(x, keep_dims=True, requantize=False), 8, 1, 1, VALID, NONE)


def kind_mean_requant(m):
    x = m.input((1, 4, 5, 24))
    return m.fully_connected(m.mean(x, keep_dims=False, requantize=True), 10)


def kind_mean_head(m):
    x = m.input((1, 6, 4, 8))
    y = m.conv2d(x, 12, 1, 1, VALID, RELU6)
    return m.fully_connected(m.mean(y, keep_dims=False, requantize=False), 4)


def _spread(x):
    """The typical size of x's real values: its mean per-channel std."""
    return float(np.mean(x.std))


def kind_scalar_ops(m):
    x = m.input((1, 5, 5, 8))
    y = m.add(x, m.random_const((1,), _spread(x)), RELU6)
    y = m.mul(y, m.random_const((1, 1, 1, 1), 2.0))
    y = m.sub(y, m.random_const((1,), 2.0 * _spread(y)))
    return m.sub(m.random_const((), 2.0 * _spread(y)), y)


def _channel_scales(m, channels, zp_max):
    """A per-channel int8 constant of real values in [0.25, 2] with random
    signs and a zero point within +-zp_max (so every code minus the zero
    point stays int8)."""
    zp = int(m.rng.integers(-zp_max, zp_max + 1))
    values = m.rng.uniform(0.25, 2.0, channels) * m.rng.choice([-1.0, 1.0], channels)
    scale = np.float32(2.0 / (INT8_MAX - zp_max))
    q = np.clip(np.round(values / float(scale)) + zp, INT8_MIN, INT8_MAX)
    return q, scale, zp


def kind_channel_mul(m):
    x = m.input((1, 5, 5, 8))
    q, scale, zp = _channel_scales(m, 8, 20)
    y = m.mul(x, m.const((8,), q, scale, zp), RELU6)
    y = m.conv2d(y, 12, 1, 1, VALID, NONE)
    q, scale, zp = _channel_scales(m, 12, 5)
    return m.mul(m.const((1, 1, 1, 12), q, scale, zp), y)


def kind_squeeze(m):
    x = m.input((1, 4, 4, 8))
    y = m.squeeze(m.mean(x, keep_dims=True, requantize=False))
    return m.softmax(m.expand_dims(m.fully_connected(y, 6), 1), 1.0)


def kind_broadcast_ops(m):
    x = m.input((1, 5, 5, 8))
    y = m.mul(x, m.random_const((8,), 2.0))
    y = m.add(y, m.random_const((1, 1, 1, 8), 2.0 * _spread(y)))
    return m.sub(y, m.conv2d(x, 8, 1, 1, VALID, NONE))


def kind_broadcasts(m):
    x = m.input((1, 6, 5, 8))
    col = m.slice(x, [0, 0, 2, 0], [1, 6, 1, 8], (1, 6, 1, 8))
    row = m.slice(x, [0, 3, 0, 0], [1, 1, 5, 8], (1, 1, 5, 8))
    grid = m.add(col, row)
    plane = m.conv2d(x, 1, 1, 1, VALID, NONE)
    y = m.mul(grid, plane, RELU6)
    corner = m.slice(y, [0, 0, 0, 0], [1, 1, 1, 1], (1, 1, 1, 1))
    y = m.mul(y, corner)
    y = m.sub(m.random_const((6, 5, 1), 2.0 * _spread(y)), y)
    y = m.add(y, m.random_const((1, 5, 8), _spread(y)))
    # A per-channel constant whose codes minus its zero point leave int8 (no
    # 1x1 depthwise weights): the general MUL reads it.
    q = [127, -128, 100, -90, 60, -50, 30, 5]
    y = m.mul(y, m.const((8,), q, 0.01, -100))
    # A one-element constant of higher rank makes the output rank 5.
    return m.add(y, m.random_const((1, 1, 1, 1, 1), _spread(y)))


def kind_resize(m):
    x = m.input((2, 3, 4, 8))
    y = m.resize_nearest(x, 6, 8)
    y = m.conv2d(y, 8, 3, 1, SAME, RELU6)
    y = m.resize_nearest(y, 3, 4, half_pixel_centers=True)
    y = m.resize_nearest(y, 6, 8, align_corners=True)
    return m.conv2d(y, 8, 1, 1, VALID, NONE)


def kind_resize_tie(m):
    x = m.input((1, 2, 2, 8))
    y = m.conv2d(x, 8, 1, 1, VALID, NONE)
    return m.resize_nearest(y, 2, 2, align_corners=True, half_pixel_centers=True)


def kind_resize_odd(m):
    x = m.input((1, 3, 3, 8))
    return m.resize_nearest(x, 5, 5)


KINDS = {
    "conv": (kind_conv,
             "CONV_2D 3x3 stride 2 SAME + RELU6, 10x9x3 -> 5x5x8. SAME pads H by "
             "0 above / 1 below (even size) and W by 1 / 1 (odd size)"),
    "stem-wrapped": (kind_stem_wrapped,
                     "4 DEPTHWISE_CONV_2D 3x3 SAME + RELU6 on 12x9x8, CONV_2D 1x1 -> "
                     "12x9x3, then CONV_2D 3x3 stride 2 SAME + RELU6 -> 6x5x8: a stem "
                     "conv whose input the offset solver places across the pool's end, "
                     "with a pixel split by it"),
    "stems": (kind_stems,
              "three KxK CONV_2D -> DEPTHWISE_CONV_2D -> CONV_2D 1x1 chains (stem "
              "bottlenecks) on 31x29x3: 3x3 s2 SAME -> 16x15x8, dw 3x3 SAME, 1x1 -> 8; "
              "5x5 s1 VALID -> 12x11x16, dw 5x5 s2 SAME -> 6x6x16, 1x1 -> 8; 7x7 s2 "
              "SAME -> 3x3x12, dw 3x3 VALID -> 1x1x12, 1x1 -> 4"),
    "conv1x1": (kind_conv1x1, "CONV_2D 1x1, 6x6x8 -> 6x6x12, no activation"),
    "depthwise": (kind_depthwise,
                  "DEPTHWISE_CONV_2D 3x3 stride 1 SAME + RELU6, depth_multiplier 1, 7x7x8"),
    "depthwise-s2": (kind_depthwise_s2,
                     "PAD 2 on each side, then DEPTHWISE_CONV_2D 5x5 stride 2 VALID + RELU6, "
                     "9x9x8 -> 13x13x8 -> 5x5x8 (MCUNet's form of a strided depthwise)"),
    "depthwise-mult": (kind_depthwise_mult,
                       "DEPTHWISE_CONV_2D 3x3 SAME + RELU6 with depth_multiplier 3 (6x6x4 -> "
                       "6x6x12), CONV_2D 1x1 -> 8, DEPTHWISE_CONV_2D 3x3 stride 2 VALID with "
                       "depth_multiplier 2 (-> 2x2x16)"),
    "stems-narrow": (kind_stems_narrow,
                     "two stem bottlenecks whose depthwise part takes channel groups of 2 "
                     "and 1: CONV_2D 3x3 stride 2 SAME -> 10, DEPTHWISE_CONV_2D 3x3, CONV_2D "
                     "1x1 -> 5 (20x17x3 -> 10x9x5); CONV_2D 3x3 -> 6, DEPTHWISE_CONV_2D 3x3 "
                     "VALID, CONV_2D 1x1 -> 7"),
    "depthwise-mult-few": (kind_depthwise_mult_few,
                           "DEPTHWISE_CONV_2D 3x3 stride 2 SAME + RELU6 with depth_multiplier 8 "
                           "over 1 channel (9x7x1 -> 5x4x8), CONV_2D 1x1 -> 3, DEPTHWISE_CONV_2D "
                           "3x3 VALID with depth_multiplier 2 over 3 channels (-> 3x2x6)"),
    "grouped": (kind_grouped,
                "grouped CONV_2D: 3x3 SAME + RELU6 with 2 groups (6x6x8 -> 6x6x8, filter "
                "depth 4), then 1x1 with 4 groups (-> 6x6x12, filter depth 2)"),
    "dilated": (kind_dilated,
                "CONV_2D 3x3 dilation 2 SAME + RELU6 (9x8x4 -> 9x8x8), DEPTHWISE_CONV_2D 3x3 "
                "dilation 3 SAME, DEPTHWISE_CONV_2D 2x2 dilation 2 VALID + RELU6 (-> 7x6x8)"),
    "conv-pool": (kind_conv_pool,
                  "LeNet-style stages, each CONV_2D stride 1 then AVERAGE_POOL_2D 2x2 stride 2 "
                  "VALID: 3x3 VALID + RELU over 15x13x1 (-> 13x11x8, its last row and column "
                  "not averaged), 3x3 SAME + RELU6 -> 48, 5x5 SAME -> 8 (a 1,200-byte window: "
                  "the dot path) (-> 1x1x8)"),
    "add": (kind_add,
            "residual block on 6x6x8: CONV_2D 1x1 -> 16 + RELU6, CONV_2D 1x1 -> 8, "
            "ADD with the block input (three different scales / zero points)"),
    "sub": (kind_sub,
            "SUB of two same-shape activations on 6x6x8, both orders: the block "
            "input minus CONV_2D 1x1 + RELU6 of it, then CONV_2D 1x1 of that minus "
            "itself (+ RELU6)"),
    "mul": (kind_mul,
            "MUL of two same-shape activations on 5x5x8, both operand orders: the "
            "input times CONV_2D 1x1 of it, then CONV_2D 1x1 + RELU6 of that times "
            "itself (+ RELU6)"),
    "se": (kind_se,
           "squeeze-and-excite on 6x6x16: CONV_2D 1x1 + RELU6, MEAN keep_dims "
           "(requantizing), CONV_2D 1x1 -> 4 + RELU6, CONV_2D 1x1 -> 16, LOGISTIC, "
           "MUL of the block by the [1,1,1,16] gate; then a second gate on the "
           "left (MUL(gate, block) + RELU6)"),
    "head": (kind_head,
             "AVERAGE_POOL_2D 3x3 VALID (3x3x16 -> 1x1x16), RESHAPE to [1,16], "
             "FULLY_CONNECTED 16 -> 4 (per-tensor weight scale)"),
    "mini-mcunet": (kind_mini_mcunet,
                    "16x16x3: PAD 1 + CONV_2D 3x3 s2 VALID -> 8x8x8 RELU6; inverted bottleneck "
                    "(CONV_2D 1x1 -> 24 RELU6, PAD 1 + DEPTHWISE_CONV_2D 3x3 VALID RELU6, "
                    "CONV_2D 1x1 -> 8, ADD); AVERAGE_POOL_2D 8x8 -> 1x1x8; CONV_2D 1x1 -> 2; "
                    "RESHAPE to [1,2]"),
    "stem-block": (kind_stem_block,
                   "20x20x3: a stem bottleneck (CONV_2D 3x3 s2 SAME -> 10x10x16 RELU6, "
                   "DEPTHWISE_CONV_2D 3x3 SAME RELU6, CONV_2D 1x1 -> 8), then an "
                   "inverted bottleneck on its 10-pixel rows (CONV_2D 1x1 -> 24 RELU6, "
                   "DEPTHWISE_CONV_2D 3x3 SAME RELU6, CONV_2D 1x1 -> 8, ADD)"),
    "maxpool": (kind_maxpool,
                "MAX_POOL_2D 3x3 stride 2 SAME + RELU6 (9x9x8 -> 5x5x8: padded taps "
                "never win), CONV_2D 1x1 -> 16, MAX_POOL_2D 2x2 stride 2 VALID -> 2x2x16"),
    "activations": (kind_activations,
                    "standalone RELU (requantizing), CONV_2D 1x1 -> 12, QUANTIZE int8 -> "
                    "int8, RELU6, on 5x5x8"),
    "leaky-relu": (kind_leaky_relu,
                   "LEAKY_RELU (alpha 0.1, requantizing), CONV_2D 1x1 -> 12, LEAKY_RELU "
                   "(alpha 0.3) on 5x5x8"),
    "float-edges": (kind_float_edges,
                    "float32 input -> QUANTIZE -> CONV_2D 1x1 -> 12 RELU6 -> CONV_2D 1x1 -> 6 "
                    "-> DEQUANTIZE -> float32 output, on 5x5x8; --input-bin writes float32 "
                    "(the int8 range, ties, and values beyond it)"),
    "softmax": (kind_softmax,
                "SOFTMAX over 3 rows of 37 (input [1,3,37]), beta log-uniform in "
                "[0.25, 16]: large betas leave elements below diff_min"),
    "classifier": (kind_classifier,
                   "4x4x16: AVERAGE_POOL_2D 4x4, RESHAPE to [1,16], FULLY_CONNECTED "
                   "16 -> 10, SOFTMAX (beta 1): an MLPerf Tiny head"),
    "logistic-tanh": (kind_logistic_tanh,
                      "5x5x8 input over about [-8, 8]: LOGISTIC (out 1/256, -128), CONV_2D "
                      "1x1 -> 12 (weights x3: output about [-8, 8]), TANH (out 1/128, 0)"),
    "hard-swish": (kind_hard_swish,
                   "5x5x8 input over about [-6, 6]: HARD_SWISH, CONV_2D 1x1 -> 12, "
                   "HARD_SWISH (requantizing, zero point near the low end)"),
    "mean": (kind_mean,
             "MEAN over axes [1,2] keep_dims (5x6x16 -> 1x1x16, input quantization kept, "
             "n = 30), CONV_2D 1x1 -> 8"),
    "mean-requant": (kind_mean_requant,
                     "MEAN over axes [1,2] without keep_dims (4x5x24 -> [1,24], n = 20) "
                     "requantizing to a finer scale and another zero point, "
                     "FULLY_CONNECTED 24 -> 10: a converted Keras GlobalAveragePooling2D"),
    "mean-head": (kind_mean_head,
                  "6x4x8: CONV_2D 1x1 -> 12 RELU6, MEAN over axes [1,2] without keep_dims "
                  "(n = 24, RELU6 quantization kept: zero point -128), FULLY_CONNECTED 12 -> 4"),
    "scalar-ops": (kind_scalar_ops,
                   "5x5x8 with single-element int8 constants, each with its own scale and zero "
                   "point, every output requantizing: ADD(x, c[1]) + RELU6, MUL(., c[1,1,1,1]), "
                   "SUB(., c[1]), SUB(c[] (rank 0), .): the constant first"),
    "channel-mul": (kind_channel_mul,
                    "MUL of 5x5x8 by a per-channel constant [8] (+ RELU6), CONV_2D 1x1 -> "
                    "12, MUL of a constant [1,1,1,12] by it: per-channel scaling"),
    "squeeze": (kind_squeeze,
                "MEAN keep_dims (4x4x8 -> 1x1x1x8), SQUEEZE (no options: -> [8]), "
                "FULLY_CONNECTED 8 -> 6, EXPAND_DIMS axis 1 (-> [1,1,6]), SOFTMAX"),
    "inception": (kind_inception,
                  "8x8x8, a graph: CONV_2D 1x1 -> 8, CONV_2D 1x1 -> 4 then 3x3 -> 8, "
                  "MAX_POOL_2D 3x3 stride 1 then CONV_2D 1x1 -> 4, CONCATENATION of the "
                  "three branches and the input (axis 3), CONV_2D 1x1 -> 16, MEAN, "
                  "FULLY_CONNECTED -> 5, SOFTMAX"),
    "concat-axes": (kind_concat_axes,
                    "4x6x8: CONCATENATION along H of the input and its CONV_2D 1x1 "
                    "(8x6x8), along W (axis -2) of that and its DEPTHWISE_CONV_2D 3x3 "
                    "(8x12x8), along the channels (axis -1) of that tensor twice"),
    "slices": (kind_slices,
               "9x8x12: STRIDED_SLICE (stride 2 on H, a negative end, an end mask) -> "
               "4x6x8, CONV_2D 1x1, STRIDED_SLICE (strides 3 on W and 2 on C) -> 4x2x4, "
               "SLICE of the input (size -1) -> 4x2x12, CONCATENATION, STRIDED_SLICE "
               "of the last row with a shrink mask -> [1, 2, 16]"),
    "nchw": (kind_nchw,
             "an NCHW input 3x10x9: TRANSPOSE to NHWC, CONV_2D 3x3 stride 2 -> 8, "
             "TRANSPOSE of H and W, DEPTHWISE_CONV_2D 3x3, TRANSPOSE back to NCHW"),
    "batched": (kind_batched,
                "batch 3 of 6x5x4: CONV_2D 3x3 SAME -> 8, PAD + DEPTHWISE_CONV_2D 3x3 "
                "stride 2, CONV_2D 1x1, MAX_POOL_2D 2x2, MEAN, FULLY_CONNECTED -> 4 "
                "(3 rows)"),
    "two-heads": (kind_two_heads,
                  "two inputs (6x6x8 and 6x6x4, CONCATENATION), CONV_2D 1x1 -> 16, two "
                  "outputs: a detector-style CONV_2D 1x1 -> 4 reshaped to [1, 36, 4] and "
                  "MEAN, FULLY_CONNECTED -> 3, SOFTMAX"),
    "broadcasts": (kind_broadcasts,
                   "6x5x8: ADD of a column [1,6,1,8] and a row [1,1,5,8] sliced from the input "
                   "(neither operand of the output's shape), MUL by a one-channel CONV_2D "
                   "[1,6,5,1] (broadcast over channels), MUL by a one-element slice [1,1,1,1] of "
                   "that, SUB from a constant [6,5,1] (rank 3), ADD of a constant [1,5,8], "
                   "MUL by a per-channel constant whose codes minus zero point leave int8, "
                   "ADD of a one-element rank-5 constant (output [1,1,6,5,8])"),
    "resize": (kind_resize,
               "RESIZE_NEAREST_NEIGHBOR 2x3x4x8 (batch 2) -> 6x8 (2x), CONV_2D 3x3, down 2x with "
               "half_pixel_centers (rows and columns 1, 3, ...), up 2x with align_corners, "
               "CONV_2D 1x1"),
    "resize-tie": (kind_resize_tie,
                   "RESIZE_NEAREST_NEIGHBOR 2x2 -> 2x2 with align_corners and "
                   "half_pixel_centers: positions 0.5 and 1.5, which TFLite rounds half "
                   "away from zero (rows and columns 1, 1; half to even would give 0, 1)"),
    "resize-odd": (kind_resize_odd,
                   "RESIZE_NEAREST_NEIGHBOR 3x3 -> 5x5 (index map 0, 0, 1, 1, 2: not an "
                   "integer ratio; it repeats every 2 outputs)"),
    "broadcast-ops": (kind_broadcast_ops,
                      "5x5x8: MUL by a per-channel constant [8], ADD of a per-channel constant "
                      "[1,1,1,8], SUB of that and CONV_2D 1x1 -> 8 of the input (two "
                      "same-shape activations; the input has two readers)"),
}


# --- the generality corpus (issue 29) -----------------------------------------------
#
# Families of real-shaped networks, one kind each (corpus-*). A family draws
# an architecture per seed from the distribution its docstring states, using
# a shape stream of its own; weights and quantization come from the model's
# stream as for every kind. "U[a, b]" is uniform over the integers a..b,
# "U(a, b)" uniform over the reals, "logU" log-uniform (rounded), "p" a
# probability. Channel counts are round(c * alpha), not rounded to multiples
# of 8, so most are not multiples of 4. Every family then keeps the first
# draw whose graph lies within the corpus bounds below and draws again (from
# the next shape stream) otherwise: its distribution is the stated one
# conditioned on the bounds, which is what makes large inputs (up to 224 on a
# side) appear mostly with narrow widths or early downsampling.
# utils/corpus.py lists the corpus' (family, seed) pairs; `corpus.py stats`
# prints each model's shapes, MACs, weights and TFLM arena.

CORPUS_MAX_ARENA = 200 * 1024    # TFLM's arena (utils/tflm_arena.py) of the graph, bytes
CORPUS_MAX_MACS = 30_000_000     # multiply-accumulates of CONV_2D, DEPTHWISE_CONV_2D, FC
CORPUS_MAX_WEIGHTS = 512 * 1024  # bytes of constant data (weights, biases, shapes)
CORPUS_MAX_DRAWS = 1000          # draws before giving up (none of the families comes close)
RELU = S.ACT_RELU


def graph_macs(graph):
    """Multiply-accumulates of the graph's CONV_2D, DEPTHWISE_CONV_2D and
    FULLY_CONNECTED operators (other operators count 0)."""
    macs = 0
    for op in graph.operators:
        code = graph.opcodes[op.opcode_index]
        out = int(np.prod(graph.tensors[op.outputs[0]].shape))
        w = graph.tensors[op.inputs[1]].shape if len(op.inputs) > 1 else ()
        if code == S.OP_CONV_2D:        # [cout, kh, kw, depth]
            macs += out * w[1] * w[2] * w[3]
        elif code == S.OP_DEPTHWISE_CONV_2D:  # [1, kh, kw, c * mult]
            macs += out * w[1] * w[2]
        elif code == S.OP_FULLY_CONNECTED:    # [units, fan_in]
            macs += out * w[1]
    return macs


def graph_tflm_arena(graph):
    """TFLM's arena of the graph (tflm_arena.plan_tensors)."""
    import tflm_arena
    itemsize = {S.TENSOR_INT8: 1, S.TENSOR_INT32: 4, S.TENSOR_FLOAT32: 4}
    sizes = [int(np.prod(t.shape)) * itemsize[t.type] for t in graph.tensors]
    constant = [t.buffer != 0 for t in graph.tensors]
    ops = [(op.inputs, op.outputs) for op in graph.operators]
    return tflm_arena.plan_tensors(sizes, constant, ops, graph.inputs, graph.outputs)[0]


def graph_weight_bytes(graph):
    return sum(len(b) for b in graph.buffers)


def corpus_within_bounds(graph):
    return (graph_macs(graph) <= CORPUS_MAX_MACS
            and graph_weight_bytes(graph) <= CORPUS_MAX_WEIGHTS
            and graph_tflm_arena(graph) <= CORPUS_MAX_ARENA)


def _corpus_kind(family):
    """The kind of a family(m, r): r is the shape stream. Each draw is first
    built with throwaway weights and checked against the bounds."""
    family_id = zlib.crc32(family.__name__.encode())  # other families, other shapes

    def kind(m):
        base = int(m.rng.integers(1 << 62))
        for draw in range(CORPUS_MAX_DRAWS):
            trial = ModelBuilder(np.random.default_rng(0), "trial")
            trial.output(family(trial, np.random.default_rng([base, family_id, draw])))
            if corpus_within_bounds(trial.graph):
                return family(m, np.random.default_rng([base, family_id, draw]))
        raise RuntimeError(f"{family.__name__}: no draw within the corpus bounds "
                           f"in {CORPUS_MAX_DRAWS}")
    return kind


def _u(r, lo, hi):
    """U[lo, hi]: a uniform integer."""
    return int(r.integers(lo, hi + 1))


def _log_u(r, lo, hi):
    """logU[lo, hi]: a log-uniform integer."""
    return int(round(np.exp(r.uniform(np.log(lo), np.log(hi)))))


def _width(c, alpha):
    return max(1, int(round(c * alpha)))


def _image_input(m, r):
    """S x S x C: S ~ U[32, 224], C = 1 (p 0.3) or 3."""
    side = _u(r, 32, 224)
    channels = 1 if r.random() < 0.3 else 3
    return m.input((1, side, side, channels))


def _keras_pad(m, x, k):
    """Keras' correct_pad before a strided VALID window (MobileNetV2's
    ZeroPadding2D): k // 2 on each side, one less above (left) where the
    height (width) is even."""
    _, h, w, _ = x.shape
    p = k // 2
    return m.pad(x, (p - (1 - h % 2), p, p - (1 - w % 2), p))


def _window(m, layer, x, k, stride, style, *args, **kwargs):
    """A k x k CONV_2D or DEPTHWISE_CONV_2D (`layer`): SAME, or for a strided
    window in the "pad" style a PAD (Keras' correct_pad) then VALID."""
    if stride > 1 and style == "pad":
        return layer(_keras_pad(m, x, k), *args, padding=VALID, **kwargs)
    return layer(x, *args, padding=SAME, **kwargs)


def _dw(m, x, k, stride, act, style, mult=1):
    return _window(m, lambda y, padding: m.depthwise(y, k, stride, padding, act, mult=mult),
                   x, k, stride, style)


def _conv(m, x, cout, k, stride, act, style="same"):
    if k == 1:
        return m.conv2d(x, cout, 1, stride, VALID, act)
    return _window(m, lambda y, padding: m.conv2d(y, cout, k, stride, padding, act),
                   x, k, stride, style)


def _classifier(m, r, x, hidden=()):
    """Global AVERAGE_POOL_2D, RESHAPE to [1, C], FULLY_CONNECTED + RELU per
    `hidden` width, FULLY_CONNECTED -> K classes (K ~ logU[2, 100]),
    SOFTMAX (beta 1)."""
    y = m.global_avg_pool(x)
    y = m.reshape(y, (1, y.shape[-1]))
    return _fc_head(m, r, y, hidden)


def _fc_head(m, r, y, hidden=(), classes=None):
    for units in hidden:
        y = m.fully_connected(y, units, RELU)
    classes = _log_u(r, 2, 100) if classes is None else classes
    return m.softmax(m.fully_connected(y, classes), 1.0)


def _mobilenet_stem(m, r, x, c0, style):
    """CONV_2D 3x3 stride 2 + RELU6 -> c0 (p 0.5), else a separable stem:
    DEPTHWISE_CONV_2D 3x3 stride 2 + RELU6 with multiplier 8 over a
    1-channel input, 2 or 8 (p 0.5 each) over 3 channels, then CONV_2D 1x1
    + RELU6 -> c0."""
    if r.random() < 0.5:
        return _conv(m, x, c0, 3, 2, RELU6, style)
    mult = 8 if x.shape[-1] == 1 or r.random() < 0.5 else 2
    y = _dw(m, x, 3, 2, RELU6, style, mult)
    return m.conv2d(y, c0, 1, 1, VALID, RELU6)


# MobileNetV1's depthwise-separable blocks (pointwise channels, stride).
MOBILENET_V1_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1),
                       (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1))


def corpus_mobilenet_v1(m, r):
    """MobileNetV1 (Howard et al. 2017; MLPerf Tiny's VWW model is one):
    input S x S x C, S ~ U[32, 224], C = 1 (p 0.3) or 3; width multiplier
    alpha ~ U(0.1, 0.5); the first B ~ U[4, 13] of V1's 13 blocks; strided
    windows SAME (p 0.5) or Keras' PAD + VALID (the model's style); stem as
    _mobilenet_stem -> round(32 alpha); block: DEPTHWISE_CONV_2D 3x3 +
    RELU6 (multiplier 2 with p 0.03, else 1), CONV_2D 1x1 + RELU6 ->
    round(c alpha); head: _classifier."""
    x = _image_input(m, r)
    alpha = r.uniform(0.1, 0.5)
    blocks = _u(r, 4, 13)
    style = "same" if r.random() < 0.5 else "pad"
    y = _mobilenet_stem(m, r, x, _width(32, alpha), style)
    for c, stride in MOBILENET_V1_BLOCKS[:blocks]:
        mult = 2 if r.random() < 0.03 else 1
        y = _dw(m, y, 3, stride, RELU6, style, mult)
        y = m.conv2d(y, _width(c, alpha), 1, 1, VALID, RELU6)
    return _classifier(m, r, y)


# MobileNetV2's stages (expansion, channels, repeats, stride of the first).
MOBILENET_V2_STAGES = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1))


def corpus_mobilenet_v2(m, r):
    """MobileNetV2 (Sandler et al. 2018): input, alpha ~ U(0.1, 0.5), style
    and stem as corpus-mobilenet-v1; the first G ~ U[3, 7] of V2's 7
    stages, stage i repeated n_i ~ U[1, V2's n_i] times; expansion t ~
    U[2, 6] for the model (the first stage: 1); block: CONV_2D 1x1 + RELU6
    -> cin * t (if t > 1), DEPTHWISE_CONV_2D 3x3 stride s + RELU6, CONV_2D
    1x1 -> round(c alpha) (linear), ADD of the block input where s = 1 and
    the channels agree; last CONV_2D 1x1 + RELU6 -> round(1280 beta), beta ~
    U(0.1, 0.5); head: _classifier."""
    x = _image_input(m, r)
    alpha = r.uniform(0.1, 0.5)
    stages = _u(r, 3, 7)
    expansion = _u(r, 2, 6)
    style = "same" if r.random() < 0.5 else "pad"
    y = _mobilenet_stem(m, r, x, _width(32, alpha), style)
    for i, (t, c, n, s) in enumerate(MOBILENET_V2_STAGES[:stages]):
        t = t if i == 0 else expansion
        for j in range(_u(r, 1, n)):
            stride = s if j == 0 else 1
            cin, cout = y.shape[-1], _width(c, alpha)
            z = m.conv2d(y, cin * t, 1, 1, VALID, RELU6) if t > 1 else y
            z = _dw(m, z, 3, stride, RELU6, style)
            z = m.conv2d(z, cout, 1, 1, VALID, NONE)
            y = m.add(y, z) if stride == 1 and cin == cout else z
    y = m.conv2d(y, _width(1280, r.uniform(0.1, 0.5)), 1, 1, VALID, RELU6)
    return _classifier(m, r, y)


def corpus_dscnn(m, r):
    """DS-CNN keyword spotting (Zhang et al. 2017, "Hello Edge"; MLPerf
    Tiny's KWS): a spectrogram T x F x 1, T ~ U[25, 99] frames, F ~ U[10, 40]
    features; C ~ U[16, 172] filters; B ~ U[2, 6] blocks; activation RELU
    (p 0.5) or RELU6. First layer (p 0.7): CONV_2D kh x kw -> C, kh ~ U[3,
    10], kw ~ U[3, 4], strides along T and F each 2 (p 0.7) or 1, SAME (p
    0.7) or VALID; else the same window as a DEPTHWISE_CONV_2D with
    multiplier 8 over the one channel (the blocks then read 8 channels).
    Block: DEPTHWISE_CONV_2D 3x3 SAME, CONV_2D 1x1 -> C, each + activation.
    Head (p 0.75): AVERAGE_POOL_2D over the whole (non-square) map, RESHAPE,
    else RESHAPE of the whole map (flatten); then FULLY_CONNECTED -> K ~
    U[2, 35] classes, SOFTMAX."""
    frames, features = _u(r, 25, 99), _u(r, 10, 40)
    filters, blocks = _u(r, 16, 172), _u(r, 2, 6)
    act = RELU if r.random() < 0.5 else RELU6
    first_conv = r.random() < 0.7
    kh, kw = _u(r, 3, 10), _u(r, 3, 4)
    sh, sw = (2 if r.random() < 0.7 else 1), (2 if r.random() < 0.7 else 1)
    padding = SAME if r.random() < 0.7 else VALID
    pooled = r.random() < 0.75
    classes = _u(r, 2, 35)
    x = m.input((1, frames, features, 1))
    if first_conv:
        y = m.conv2d(x, filters, kh, sh, padding, act, kw=kw, stride_w=sw)
    else:
        y = m.depthwise(x, kh, sh, padding, act, mult=8, kw=kw, stride_w=sw)
    for _ in range(blocks):
        y = m.depthwise(y, 3, 1, SAME, act)
        y = m.conv2d(y, filters, 1, 1, VALID, act)
    if pooled:
        y = m.global_avg_pool(y)
    y = m.reshape(y, (1, int(np.prod(y.shape))))
    return _fc_head(m, r, y, classes=classes)


def corpus_resnet(m, r):
    """ResNet-style residual stacks (He et al. 2016; MLPerf Tiny's ResNet-8
    is one): input as corpus-mobilenet-v1; stem CONV_2D k x k SAME + RELU ->
    w0, k = 3 (p 0.5), 5 or 7 (p 0.25 each), stride 2 (p 0.5) or 1, w0 ~
    U[8, 32]; G ~ U[2, 4] stages of n ~ U[1, 2] blocks each (per stage),
    stage i with round(w0 g^i) channels, g ~ U(1.5, 2); the first block of
    every stage after the first has stride 2. Block: CONV_2D 3x3 stride s
    SAME + RELU, CONV_2D 3x3 SAME (linear), ADD + RELU of that and the
    shortcut (operand order p 0.5 each): the block input where s = 1 and
    the channels agree (identity), else CONV_2D 1x1 stride s (projection).
    Head: _classifier."""
    x = _image_input(m, r)
    k = 3 if r.random() < 0.5 else (5 if r.random() < 0.5 else 7)
    stride = 2 if r.random() < 0.5 else 1
    w0, stages, growth = _u(r, 8, 32), _u(r, 2, 4), r.uniform(1.5, 2.0)
    y = m.conv2d(x, w0, k, stride, SAME, RELU)
    for i in range(stages):
        width = _width(w0, growth ** i)
        for j in range(_u(r, 1, 2)):
            s = 2 if i > 0 and j == 0 else 1
            z = m.conv2d(y, width, 3, s, SAME, RELU)
            z = m.conv2d(z, width, 3, 1, SAME, NONE)
            identity = s == 1 and y.shape[-1] == width
            shortcut = y if identity else m.conv2d(y, width, 1, s, VALID, NONE)
            y = m.add(shortcut, z, RELU) if r.random() < 0.5 else m.add(z, shortcut, RELU)
    return _classifier(m, r, y)


def corpus_cnn_fc(m, r):
    """Plain CNN + FC (LeNet-style; the CMSIS-NN CIFAR-10 example's shape):
    input as corpus-mobilenet-v1; L ~ U[2, 5] CONV_2D k x k layers (k = 3
    (p 0.6) or 5), channels c1 ~ U[4, 32] then c_{i+1} = round(c_i U(1,
    2)); activation RELU (p 0.5) or RELU6 and padding SAME (p 0.5) or VALID
    for the model; each layer halves the map: stride 2 (p 0.5), else stride
    1 and AVERAGE_POOL_2D 2x2 stride 2 VALID (layers stop early where the
    map is too small for the next); then RESHAPE to [1, H W C]
    (flatten), H ~ U[0, 2] FULLY_CONNECTED + RELU of U[16, 128] units each,
    FULLY_CONNECTED -> K ~ logU[2, 100] classes, SOFTMAX."""
    x = _image_input(m, r)
    layers = _u(r, 2, 5)
    act = RELU if r.random() < 0.5 else RELU6
    padding = SAME if r.random() < 0.5 else VALID
    y, c = x, _u(r, 4, 32)
    for _ in range(layers):
        k = 3 if r.random() < 0.6 else 5
        strided = r.random() < 0.5
        side = min(y.shape[1:3])
        if padding == VALID and side < k + (0 if strided else 1) or side < 2:
            break  # the map is too small for more layers
        if strided:
            y = m.conv2d(y, c, k, 2, padding, act)
        else:
            y = m.avg_pool(m.conv2d(y, c, k, 1, padding, act), 2, 2, VALID)
        c = _width(c, r.uniform(1.0, 2.0))
    y = m.reshape(y, (1, int(np.prod(y.shape))))
    hidden = [_u(r, 16, 128) for _ in range(_u(r, 0, 2))]
    return _fc_head(m, r, y, hidden)


def corpus_fc_autoencoder(m, r):
    """Fully connected autoencoder (MLPerf Tiny's anomaly detection on
    ToyADMOS: 640 -> 128 x 4 -> 8 -> 128 x 4 -> 640): input [1, D], D =
    frames x bins, frames ~ U[1, 5], bins ~ U[32, 128]; h ~ U[32, 256];
    E ~ U[2, 4] encoder and E' ~ U[2, 4] decoder layers, each
    FULLY_CONNECTED + RELU of round(h U(0.75, 1.25)) units; between them
    the bottleneck FULLY_CONNECTED + RELU -> b ~ U[4, 32]; last
    FULLY_CONNECTED -> D (linear)."""
    d = _u(r, 1, 5) * _u(r, 32, 128)
    h, encoder, decoder, bottleneck = _u(r, 32, 256), _u(r, 2, 4), _u(r, 2, 4), _u(r, 4, 32)
    y = m.input((1, d))
    for _ in range(encoder):
        y = m.fully_connected(y, _width(h, r.uniform(0.75, 1.25)), RELU)
    y = m.fully_connected(y, bottleneck, RELU)
    for _ in range(decoder):
        y = m.fully_connected(y, _width(h, r.uniform(0.75, 1.25)), RELU)
    return m.fully_connected(y, d)


def corpus_concat_branches(m, r):
    """Branches joined by CONCATENATION (Inception modules, SqueezeNet's fire
    modules): input as corpus-mobilenet-v1; stem CONV_2D 3x3 stride 2 SAME +
    RELU -> c0 ~ U[8, 32]; M ~ U[1, 4] modules, each preceded (p 0.6) by a
    downsampling: MAX_POOL_2D 3x3 stride 2 SAME (p 0.5) or CONV_2D 3x3
    stride 2 SAME + RELU keeping the channels. A module is (p 0.5) a fire
    module: CONV_2D 1x1 + RELU -> s ~ U[4, 32], then CONCATENATION of CONV_2D
    1x1 and CONV_2D 3x3 SAME of it (+ RELU, U[4, 64] channels each); else an
    inception module: CONCATENATION of B ~ U[2, 4] branches of the module
    input, each (p 0.25 each) 1x1 -> c; 1x1 -> q, 3x3 -> c; 1x1 -> q, 3x3 ->
    q, 3x3 -> c; MAX_POOL_2D 3x3 stride 1 SAME, 1x1 -> c (CONV_2D SAME +
    RELU, c, q ~ U[4, 48]). The pieces of a CONCATENATION share one
    quantization, as the converter writes them. Head: _classifier."""
    x = _image_input(m, r)
    y = m.conv2d(x, _u(r, 8, 32), 3, 2, SAME, RELU)
    for _ in range(_u(r, 1, 4)):
        if r.random() < 0.6:
            if r.random() < 0.5:
                y = m.max_pool(y, 3, 2, SAME, NONE)
            else:
                y = m.conv2d(y, y.shape[-1], 3, 2, SAME, RELU)
        if r.random() < 0.5:
            s = m.conv2d(y, _u(r, 4, 32), 1, 1, VALID, RELU)
            y = m.concat([m.conv2d(s, _u(r, 4, 64), 1, 1, VALID, RELU),
                          m.conv2d(s, _u(r, 4, 64), 3, 1, SAME, RELU)], 3, shared=True)
            continue
        branches = []
        for _ in range(_u(r, 2, 4)):
            kind, c, q = _u(r, 0, 3), _u(r, 4, 48), _u(r, 4, 48)
            if kind == 0:
                b = m.conv2d(y, c, 1, 1, VALID, RELU)
            elif kind == 1:
                b = m.conv2d(m.conv2d(y, q, 1, 1, VALID, RELU), c, 3, 1, SAME, RELU)
            elif kind == 2:
                b = m.conv2d(m.conv2d(y, q, 1, 1, VALID, RELU), q, 3, 1, SAME, RELU)
                b = m.conv2d(b, c, 3, 1, SAME, RELU)
            else:
                b = m.conv2d(m.max_pool(y, 3, 1, SAME, NONE), c, 1, 1, VALID, RELU)
            branches.append(b)
        y = m.concat(branches, 3, shared=True)
    return _classifier(m, r, y)


_CORPUS_BOUNDS = (f"Drawn per seed (the distribution: make-tflite.py's docstring of "
                  f"the family), kept within TFLM arena <= {CORPUS_MAX_ARENA // 1024} KiB, "
                  f"MACs <= {CORPUS_MAX_MACS // 1_000_000} M, constants <= "
                  f"{CORPUS_MAX_WEIGHTS // 1024} KiB (redrawn otherwise).")
KINDS.update({
    "corpus-mobilenet-v1": (_corpus_kind(corpus_mobilenet_v1),
                            "MobileNetV1: input 32..224 on a side, 1 or 3 channels, width "
                            "0.1-0.5, 4-13 depthwise-separable blocks, a conv stem or a "
                            "depthwise stem with multiplier 8 (1 channel) or 2 / 8 (3), "
                            "multiplier 2 on 3% of the later depthwise layers, SAME or "
                            "PAD + VALID strides, AVERAGE_POOL + FC + SOFTMAX. "
                            + _CORPUS_BOUNDS),
    "corpus-mobilenet-v2": (_corpus_kind(corpus_mobilenet_v2),
                            "MobileNetV2: inverted residual blocks (expansion 2-6, ADD where "
                            "the shape stays), 3-7 stages, input, width and stem as "
                            "corpus-mobilenet-v1. " + _CORPUS_BOUNDS),
    "corpus-dscnn": (_corpus_kind(corpus_dscnn),
                     "DS-CNN for audio: a T x F x 1 spectrogram (T 25..99, F 10..40), a "
                     "kh x kw (3..10 x 3..4) CONV_2D or depthwise with multiplier 8, 2-6 "
                     "depthwise-separable blocks of 16..172 filters, AVERAGE_POOL or "
                     "flatten, FC + SOFTMAX. " + _CORPUS_BOUNDS),
    "corpus-resnet": (_corpus_kind(corpus_resnet),
                      "ResNet-style stacks: a 3/5/7 stem, 2-4 stages of 1-2 blocks (two "
                      "3x3 convs, ADD + RELU with an identity or a 1x1 stride-2 projection "
                      "shortcut), AVERAGE_POOL + FC + SOFTMAX. " + _CORPUS_BOUNDS),
    "corpus-cnn-fc": (_corpus_kind(corpus_cnn_fc),
                      "plain CNN + FC: 2-5 3x3 / 5x5 convs, each halving the map by stride "
                      "2 or AVERAGE_POOL_2D 2x2, flatten, 0-2 hidden FC + RELU, FC + "
                      "SOFTMAX. " + _CORPUS_BOUNDS),
    "corpus-fc-autoencoder": (_corpus_kind(corpus_fc_autoencoder),
                              "FC autoencoder: [1, D] (D 32..640), 2-4 + 2-4 FC + RELU "
                              "layers of 24..320 units around a 4..32 bottleneck, FC -> D. "
                              + _CORPUS_BOUNDS),
    "corpus-concat-branches": (_corpus_kind(corpus_concat_branches),
                               "branches joined by CONCATENATION: a stride-2 stem, 1-4 fire "
                               "or inception modules (2-4 branches of 1x1, 3x3, double 3x3, "
                               "MAX_POOL + 1x1), MAX_POOL or conv downsampling, "
                               "AVERAGE_POOL + FC + SOFTMAX. " + _CORPUS_BOUNDS),
})
CORPUS_FAMILIES = [k for k in KINDS if k.startswith("corpus-")]


# --- one parametrized layer (--layer; bench/shape-grid.sh) ------------------------
#
# --layer OP:KEY=VALUE,... builds a model of one CONV_2D, DEPTHWISE_CONV_2D or
# FULLY_CONNECTED (OP conv, depthwise or fc) instead of a kind. Keys (default):
# h, w: input height and width (16, 16); cin (8); cout: conv and fc output
# channels (8; a depthwise has cin * mult); kh, kw: window (1, 1); sh, sw:
# strides (1, 1); dil: dilation of both axes (1); mult: depthwise multiplier
# (1); pad: same or valid (same); act: none, relu or relu6 (relu6 for conv and
# depthwise, none for fc); rows: fc input rows, the input being [rows, cin] (1).

LAYER_OPS = ("conv", "depthwise", "fc")
LAYER_KEYS = dict(h=16, w=16, cin=8, cout=8, kh=1, kw=1, sh=1, sw=1, dil=1, mult=1, rows=1)
LAYER_PADS = {"same": SAME, "valid": VALID}
LAYER_ACTS = {"none": NONE, "relu": S.ACT_RELU, "relu6": RELU6}


def parse_layer(spec):
    """'OP:KEY=VALUE,...' -> (op, {key: value}) with the defaults filled in."""
    op, _, rest = spec.partition(":")
    if op not in LAYER_OPS:
        raise ValueError(f"--layer {spec}: OP must be one of {', '.join(LAYER_OPS)}")
    p = dict(LAYER_KEYS, pad="same", act="none" if op == "fc" else "relu6")
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key in LAYER_KEYS:
            p[key] = int(value)
        elif key == "pad" and value in LAYER_PADS or key == "act" and value in LAYER_ACTS:
            p[key] = value
        else:
            raise ValueError(f"--layer {spec}: bad key or value {item!r}")
    return op, p


def layer_kind(spec):
    """The kind function of --layer SPEC."""
    op, p = parse_layer(spec)
    act = LAYER_ACTS[p["act"]]

    def kind(m):
        if op == "fc":
            return m.fully_connected(m.input((p["rows"], p["cin"])), p["cout"], act)
        x = m.input((1, p["h"], p["w"], p["cin"]))
        window = dict(dilation=p["dil"], kw=p["kw"], stride_w=p["sw"])
        if op == "conv":
            return m.conv2d(x, p["cout"], p["kh"], p["sh"], LAYER_PADS[p["pad"]], act, **window)
        return m.depthwise(x, p["kh"], p["sh"], LAYER_PADS[p["pad"]], act, mult=p["mult"],
                           **window)
    return kind


def build_graph(kind, seed, layer=None):
    """Returns (the model's Graph, a random int8 input of its input shape);
    `layer`: a --layer SPEC, built instead of `kind`."""
    model_seed, input_seed = np.random.SeedSequence(seed).spawn(2)
    what = f"--layer {layer}" if layer else f"--kind {kind}"
    m = ModelBuilder(np.random.default_rng(model_seed), f"make-tflite.py {what} --seed {seed}")
    out = (layer_kind(layer) if layer else KINDS[kind][0])(m)
    if out is not None:
        m.output(*(out if isinstance(out, tuple) else (out,)))
    # Every input's bytes, one after another.
    first = m.graph.tensors[m.graph.inputs[0]]
    rng = np.random.default_rng(input_seed)
    count = sum(int(np.prod(m.graph.tensors[i].shape)) for i in m.graph.inputs)
    x = rng.integers(INT8_MIN, INT8_MAX + 1, size=count, dtype=np.int8)
    if first.type == S.TENSOR_FLOAT32:
        x = _float_input(m, x.reshape(first.shape), rng)
    return m.graph, x


def _float_input(m, q, rng):
    """Float32 values for a float input: the real values of int8 codes q
    (as its QUANTIZE's output quantization reads them), offset by exact
    half steps (ties), random fractions, or pushed beyond the int8 range."""
    quant = m.graph.tensors[m.graph.operators[0].outputs[0]]
    scale, zp = np.float32(quant.scale[0]), int(quant.zero_point[0])
    offset = rng.choice([0.5, -0.5, 0.0], size=q.shape) + rng.uniform(-0.4, 0.4, size=q.shape) \
        * rng.integers(0, 2, size=q.shape)
    beyond = rng.random(q.shape) < 0.05
    real = (q.astype(np.float64) - zp + offset) * np.float64(scale)
    real = np.where(beyond, real * 3.0, real)
    return real.astype(np.float32)


def main():
    kinds = "\n".join(textwrap.fill(doc, 79, initial_indent=f"  {k:13} ",
                                     subsequent_indent=" " * 16)
                       for k, (_, doc) in KINDS.items())
    parser = argparse.ArgumentParser(
        description="Write a small seeded int8 .tflite model (NHWC, batch 1, per-channel "
                    "weight scales, int32 biases).",
        epilog=f"kinds:\n{kinds}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--kind", choices=list(KINDS), metavar="KIND",
                       help="which model (listed below)")
    which.add_argument("--layer", metavar="OP:KEY=VALUE,...",
                       help="a model of one layer: OP conv, depthwise or fc; keys h, w, cin, "
                            "cout, kh, kw, sh, sw, dil, mult, rows, pad (same/valid), act "
                            "(none/relu/relu6) (see make-tflite.py's --layer section)")
    parser.add_argument("--seed", type=int, required=True,
                        help="seed of the weights, quantization and --input-bin")
    parser.add_argument("-o", dest="out", required=True, metavar="OUT.tflite",
                        help="the model to write")
    parser.add_argument("--input-bin", metavar="IN.bin",
                        help="also write a uniform [-128, 127] int8 input (raw bytes, NHWC)")
    args = parser.parse_args()
    try:
        graph, x = build_graph(args.kind, args.seed, args.layer)
    except ValueError as e:
        parser.error(str(e))
    with open(args.out, "wb") as f:
        f.write(graph.serialize())
    if args.input_bin:
        x.tofile(args.input_bin)


if __name__ == "__main__":
    sys.exit(main())
