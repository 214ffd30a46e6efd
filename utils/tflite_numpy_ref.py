#!/usr/bin/python3
"""tflite_numpy_ref.py - TFLite's int8 reference kernels in numpy, a second host oracle.

  tflite_numpy_ref.py MODEL.tflite IN.bin OUT.bin

IN.bin holds every model input's bytes one after another in input order,
OUT.bin gets every output's (as vmcu's harness reads and writes them).

Reads a one-subgraph int8 .tflite (schema ids in tflite_schema.py), runs it on
IN.bin (raw int8, NHWC) and writes the raw int8 output, like
/work/shared/tools/tflite_ref.py does with Arm NN. Supported ops: ADD, SUB
and MUL (numpy broadcasting, up to 6 dimensions, either operand may be a
constant tensor), AVERAGE_POOL_2D, CONV_2D, DEPTHWISE_CONV_2D,
FULLY_CONNECTED, MAX_POOL_2D, PAD, RESHAPE, CONCATENATION (a byte copy,
as TFLM's int8 kernel), TRANSPOSE, RESIZE_NEAREST_NEIGHBOR (float32 index
maps as TFLM computes them), SLICE and STRIDED_SLICE (positive strides, as
strided_slice_logic.h resolves masks and negative indices), with fused
NONE / RELU /
RELU_N1_TO_1 / RELU6, SOFTMAX, and RELU, RELU6, LEAKY_RELU and
int8 QUANTIZE (int8 in and out, gemmlowp's
fixed-point exp and reciprocal, as reference_ops::Softmax), LOGISTIC and TANH
(gemmlowp's fixed-point logistic / tanh on Q4.27, as TFLM's
reference_integer_ops) and HARD_SWISH (reference_ops::HardSwish's int16 fixed
point); these three are per-value, so each op builds a 256-entry table. MEAN
(over at most two distinct axes, keep_dims or not) follows TFLM's integer
QuantizedMeanOrSum, with 1/n folded into the rescale multiplier. A float32
input read by QUANTIZE (AffineQuantize) and a float32 output written by
DEQUANTIZE are supported too: IN.bin and OUT.bin then hold float32.

The arithmetic is integer-only and follows tensorflow/lite/kernels/internal
(reference_integer_ops and common.h): QuantizeMultiplier turns each double
rescale factor into an int32 multiplier and a shift;
MultiplyByQuantizedMultiplier is SaturatingRoundingDoublingHighMul followed
by RoundingDivideByPOT; ADD and SUB shift both offset inputs left by 20
bits before rescaling them (SUB's prepare forms its rescale factors in float,
ADD's in double), MUL rescales the int32 product of the offset inputs;
AVERAGE_POOL_2D divides with rounding half away from zero
over the window's in-bounds elements; fused activations clamp to the output's
quantized range. Arm NN computes some int8 layers through float, so the two
oracles may differ by 1 in a few elements.
"""
import math
import sys
from dataclasses import dataclass

import numpy as np
from flatbuffers import encode, packer
from flatbuffers import number_types as N
from flatbuffers.table import Table

import tflite_schema as S

INT8_MIN, INT8_MAX = -128, 127
INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1
ADD_LEFT_SHIFT = 20
DTYPES = {S.TENSOR_INT8: np.int8, S.TENSOR_INT32: np.int32, S.TENSOR_FLOAT32: np.float32}


# --- reading the FlatBuffer ---------------------------------------------------

def _slot(t, fid):
    return t.Offset(4 + 2 * fid)  # vtable entry of field `fid`


def _scalar(t, fid, flags, default=0):
    off = _slot(t, fid)
    return t.Get(flags, t.Pos + off) if off else default


def _subtable(t, fid):
    off = _slot(t, fid)
    return Table(t.Bytes, t.Indirect(t.Pos + off)) if off else None


def _subtables(t, fid):
    off = _slot(t, fid)
    if not off:
        return []
    start = t.Vector(off)
    return [Table(t.Bytes, t.Indirect(start + 4 * i)) for i in range(t.VectorLen(off))]


def _array(t, fid, dtype):
    off = _slot(t, fid)
    if not off:
        return np.zeros(0, dtype)
    return np.frombuffer(t.Bytes, dtype, count=t.VectorLen(off), offset=t.Vector(off)).copy()


def _string(t, fid):
    off = _slot(t, fid)
    return t.String(t.Pos + off).decode() if off else ""


@dataclass
class Tensor:
    name: str
    shape: tuple
    data: np.ndarray    # None for a non-constant tensor
    scale: np.ndarray   # float32, one per tensor or per channel
    zero_point: np.ndarray
    dtype: type = np.int8  # of its values


@dataclass
class Op:
    code: int
    inputs: list
    outputs: list
    options: Table      # None if the operator has none


def read_model(buf):
    """Returns (tensors, ops, input ids, output ids) of subgraph 0."""
    if bytes(buf[4:8]) != S.FILE_IDENTIFIER:
        raise ValueError("not a TFLite model (file identifier is not TFL3)")
    model = Table(buf, encode.Get(packer.uoffset, buf, 0))
    codes = [max(_scalar(c, S.OPCODE_DEPRECATED_BUILTIN_CODE, N.Int8Flags),
                 _scalar(c, S.OPCODE_BUILTIN_CODE, N.Int32Flags))
             for c in _subtables(model, S.MODEL_OPERATOR_CODES)]
    buffers = [_array(b, S.BUFFER_DATA, np.uint8) for b in _subtables(model, S.MODEL_BUFFERS)]
    graph = _subtables(model, S.MODEL_SUBGRAPHS)[0]
    tensors = []
    for t in _subtables(graph, S.SUBGRAPH_TENSORS):
        shape = tuple(int(d) for d in _array(t, S.TENSOR_SHAPE, "<i4"))
        raw = buffers[_scalar(t, S.TENSOR_BUFFER, N.Uint32Flags)]
        data = None
        if raw.size:
            data = raw.view(DTYPES[_scalar(t, S.TENSOR_TYPE, N.Int8Flags)]).reshape(shape)
        q = _subtable(t, S.TENSOR_QUANTIZATION)
        scale = _array(q, S.QUANT_SCALE, "<f4") if q else np.zeros(0, np.float32)
        zp = _array(q, S.QUANT_ZERO_POINT, "<i8") if q else np.zeros(0, np.int64)
        dtype = DTYPES.get(_scalar(t, S.TENSOR_TYPE, N.Int8Flags), np.int8)
        tensors.append(Tensor(_string(t, S.TENSOR_NAME), shape, data, scale, zp, dtype))
    ops = []
    for o in _subtables(graph, S.SUBGRAPH_OPERATORS):
        options = _subtable(o, S.OPERATOR_BUILTIN_OPTIONS)
        ops.append(Op(codes[_scalar(o, S.OPERATOR_OPCODE_INDEX, N.Uint32Flags)],
                      list(_array(o, S.OPERATOR_INPUTS, "<i4")),
                      list(_array(o, S.OPERATOR_OUTPUTS, "<i4")), options))
    inputs = list(_array(graph, S.SUBGRAPH_INPUTS, "<i4"))
    outputs = list(_array(graph, S.SUBGRAPH_OUTPUTS, "<i4"))
    return tensors, ops, inputs, outputs


# --- fixed-point arithmetic (tensorflow/lite/kernels/internal/common.h) ------

def round_half_away(x):
    """TfLiteRound / std::round."""
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def quantize_multiplier(real):
    """A double as (int32 multiplier in [2^30, 2^31), shift): real ~ m * 2^(shift - 31)."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round_half_away(q * (1 << 31))
    if q_fixed == 1 << 31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q_fixed, shift


def saturating_rounding_doubling_high_mul(a, b):
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    ab = a * b
    s = ab + np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    high = np.where(s >= 0, s >> 31, -((-s) >> 31))  # C++ division truncates toward zero
    return np.where((a == INT32_MIN) & (b == INT32_MIN), INT32_MAX, high)


def rounding_divide_by_pot(x, exponent):
    x, exponent = np.asarray(x, np.int64), np.asarray(exponent, np.int64)
    mask = (np.int64(1) << exponent) - 1
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + ((x & mask) > threshold)


def multiply_by_quantized_multiplier(x, multiplier, shift):
    shift = np.asarray(shift, np.int64)
    left, right = np.maximum(shift, 0), np.maximum(-shift, 0)
    # A left shift (rescale factor > 1) saturates to int32, as TFLite's
    # optimized kernels do; the reference kernel's int32 product would wrap.
    shifted = np.clip(np.asarray(x, np.int64) * (np.int64(1) << left), INT32_MIN, INT32_MAX)
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier), right)


def activation_range(act, t):
    """CalculateActivationRangeQuantized for an int8 output tensor t."""
    if act == S.ACT_NONE:
        return INT8_MIN, INT8_MAX
    scale, zp = np.float32(t.scale[0]), int(t.zero_point[0])
    quantize = lambda f: zp + round_half_away(float(np.float32(f) / scale))
    if act == S.ACT_RELU:
        return max(INT8_MIN, quantize(0.0)), INT8_MAX
    if act == S.ACT_RELU_N1_TO_1:
        return max(INT8_MIN, quantize(-1.0)), min(INT8_MAX, quantize(1.0))
    if act != S.ACT_RELU6:
        raise NotImplementedError(f"fused activation {act}")
    return max(INT8_MIN, quantize(0.0)), min(INT8_MAX, quantize(6.0))


# --- kernels ------------------------------------------------------------------

def _padding(size, k, stride, dilation, padding, out):
    """ComputePaddingHeightWidth: the leading pad (the trailing one takes the odd unit)."""
    eff = (k - 1) * dilation + 1
    expected = -(-size // stride) if padding == S.PADDING_SAME else (size - eff + stride) // stride
    if expected != out:
        raise ValueError(f"output size {out} is not {expected}")
    if padding != S.PADDING_SAME:
        return 0
    return max((out - 1) * stride + eff - size, 0) // 2


def _windows(x, kh, kw, stride, dilation, pads, out_hw):
    """[oh, ow, kh, kw, c] windows of x [h, w, c], reading 0 outside x."""
    (sh, sw), (dh, dw), (pt, pl), (oh, ow) = stride, dilation, pads, out_hw
    h, w, c = x.shape
    rows = max(pt + h, (oh - 1) * sh + (kh - 1) * dh + 1)
    cols = max(pl + w, (ow - 1) * sw + (kw - 1) * dw + 1)
    big = np.zeros((rows, cols, c), x.dtype)
    big[pt:pt + h, pl:pl + w] = x
    win = np.empty((oh, ow, kh, kw, c), x.dtype)
    for i in range(kh):
        for j in range(kw):
            win[:, :, i, j] = big[i * dh:i * dh + (oh - 1) * sh + 1:sh,
                                  j * dw:j * dw + (ow - 1) * sw + 1:sw]
    return win


def _conv_geometry(opt, f, x, y, kh, kw):
    sw, sh = _scalar(opt, f["stride_w"], N.Int32Flags), _scalar(opt, f["stride_h"], N.Int32Flags)
    dw = _scalar(opt, f["dilation_w"], N.Int32Flags, 1)
    dh = _scalar(opt, f["dilation_h"], N.Int32Flags, 1)
    padding = _scalar(opt, f["padding"], N.Int8Flags)
    _, h, w, _ = x.shape
    _, oh, ow, _ = y.shape
    pads = (_padding(h, kh, sh, dh, padding, oh), _padding(w, kw, sw, dw, padding, ow))
    return (sh, sw), (dh, dw), pads, (oh, ow)


def _requantize(acc, x, w, y, act):
    """int32 accumulator -> int8 with per-channel (or per-tensor) multipliers."""
    mults = [quantize_multiplier(float(np.float32(x.scale[0])) * float(ws) / float(y.scale[0]))
             for ws in np.broadcast_to(w.scale, (acc.shape[-1],))]
    m = np.array([q for q, _ in mults], np.int64)
    s = np.array([sh for _, sh in mults], np.int64)
    out = multiply_by_quantized_multiplier(acc, m, s) + int(y.zero_point[0])
    lo, hi = activation_range(act, y)
    return np.clip(out, lo, hi).astype(np.int8)


def _bias(op, t, n):
    if len(op.inputs) > 2 and op.inputs[2] >= 0:
        return t[op.inputs[2]].data.astype(np.int64)
    return np.zeros(n, np.int64)


CONV_FIELDS = dict(padding=S.CONV_PADDING, stride_w=S.CONV_STRIDE_W, stride_h=S.CONV_STRIDE_H,
                   dilation_w=S.CONV_DILATION_W, dilation_h=S.CONV_DILATION_H)
DW_FIELDS = dict(padding=S.DW_PADDING, stride_w=S.DW_STRIDE_W, stride_h=S.DW_STRIDE_H,
                 dilation_w=S.DW_DILATION_W, dilation_h=S.DW_DILATION_H)


def conv_2d(op, t, v):
    """reference_integer_ops::ConvPerChannel, grouped when the filter has
    fewer input channels than the input: groups = input depth / filter
    depth, output channel o reads the input channels of group
    o / (cout / groups)."""
    x, w, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    cout, kh, kw, fin = w.shape
    groups = x.shape[3] // fin
    if x.shape[3] % fin or cout % groups:
        raise ValueError(f"conv: {x.shape[3]} input channels, filter depth {fin}, "
                         f"{cout} outputs do not form groups")
    stride, dilation, pads, out_hw = _conv_geometry(op.options, CONV_FIELDS, x, y, kh, kw)
    xs = v[op.inputs[0]][0].astype(np.int64) - int(x.zero_point[0])
    win = _windows(xs, kh, kw, stride, dilation, pads, out_hw)
    per_group = cout // groups
    acc = np.concatenate([
        np.einsum("hwijc,oijc->hwo", win[..., g * fin:(g + 1) * fin],
                  w.data[g * per_group:(g + 1) * per_group].astype(np.int64))
        for g in range(groups)], axis=-1) + _bias(op, t, cout)
    act = _scalar(op.options, S.CONV_FUSED_ACTIVATION, N.Int8Flags)
    return _requantize(acc, x, w, y, act)[None]


def depthwise_conv_2d(op, t, v):
    x, w, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    _, kh, kw, cout = w.shape
    cin = x.shape[3]
    mult = _scalar(op.options, S.DW_DEPTH_MULTIPLIER, N.Int32Flags)
    if cin * mult != cout:
        raise ValueError(f"depthwise: {cin} channels x multiplier {mult} != {cout}")
    stride, dilation, pads, out_hw = _conv_geometry(op.options, DW_FIELDS, x, y, kh, kw)
    xs = v[op.inputs[0]][0].astype(np.int64) - int(x.zero_point[0])
    win = _windows(xs, kh, kw, stride, dilation, pads, out_hw)
    filt = w.data[0].astype(np.int64).reshape(kh, kw, cin, mult)
    acc = np.einsum("hwijc,ijcm->hwcm", win, filt).reshape(out_hw + (cout,))
    acc += _bias(op, t, cout)
    act = _scalar(op.options, S.DW_FUSED_ACTIVATION, N.Int8Flags)
    return _requantize(acc, x, w, y, act)[None]


def fully_connected(op, t, v):
    x, w, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    if w.scale.size != 1 or np.any(w.zero_point != 0):
        raise NotImplementedError("FULLY_CONNECTED needs per-tensor weights with zero point 0")
    xs = v[op.inputs[0]].reshape(-1, w.shape[1]).astype(np.int64) - int(x.zero_point[0])
    acc = xs @ w.data.astype(np.int64).T + _bias(op, t, w.shape[0])
    act = _scalar(op.options, S.FC_FUSED_ACTIVATION, N.Int8Flags)
    return _requantize(acc, x, w, y, act).reshape(y.shape)


def _pool(op, t, v, name, reduce):
    """A TFLite int8 pool: `reduce(window)` over each window's in-bounds
    elements (an [h, w, c] slice), clamped to the fused activation's range.
    Input and output share their quantization."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    if x.scale[0] != y.scale[0] or x.zero_point[0] != y.zero_point[0]:
        raise ValueError(f"{name} needs the same input and output quantization")
    opt = op.options
    fw = _scalar(opt, S.POOL_FILTER_W, N.Int32Flags)
    fh = _scalar(opt, S.POOL_FILTER_H, N.Int32Flags)
    sw = _scalar(opt, S.POOL_STRIDE_W, N.Int32Flags)
    sh = _scalar(opt, S.POOL_STRIDE_H, N.Int32Flags)
    padding = _scalar(opt, S.POOL_PADDING, N.Int8Flags)
    _, h, w, c = x.shape
    _, oh, ow, _ = y.shape
    pt, pl = _padding(h, fh, sh, 1, padding, oh), _padding(w, fw, sw, 1, padding, ow)
    xv = v[op.inputs[0]][0].astype(np.int64)
    out = np.empty((oh, ow, c), np.int64)
    for oy in range(oh):
        y0, y1 = max(oy * sh - pt, 0), min(oy * sh - pt + fh, h)
        for ox in range(ow):
            x0, x1 = max(ox * sw - pl, 0), min(ox * sw - pl + fw, w)
            out[oy, ox] = reduce(xv[y0:y1, x0:x1])
    lo, hi = activation_range(_scalar(opt, S.POOL_FUSED_ACTIVATION, N.Int8Flags), y)
    return np.clip(out, lo, hi).astype(np.int8)[None]


def _average(window):
    """reference_integer_ops::AveragePool: (acc +- n/2) / n with C's
    truncating division over the in-bounds count n."""
    acc = window.sum(axis=(0, 1))
    n = window.shape[0] * window.shape[1]
    return np.where(acc > 0, (acc + n // 2) // n, -((n // 2 - acc) // n))


def average_pool_2d(op, t, v):
    return _pool(op, t, v, "AVERAGE_POOL_2D", _average)


def max_pool_2d(op, t, v):
    """reference_integer_ops::MaxPool: the in-bounds maximum."""
    return _pool(op, t, v, "MAX_POOL_2D", lambda window: window.max(axis=(0, 1)))


# --- ADD, SUB, MUL: int8 binary ops with numpy broadcasting -----------------
# TFLM's prepare (micro/kernels/add_common.cc CalculateOpDataAdd,
# sub_common.cc CalculateOpDataSub, mul_common.cc CalculateOpDataMul) and
# eval (add.cc EvalAddQuantized -> reference_integer_ops::Add /
# BroadcastAdd4DSlow, sub.cc EvalSubQuantized -> reference_ops::Sub /
# BroadcastQuantSubSlow, mul_common.cc EvalMulQuantizedReference ->
# reference_integer_ops::Mul / BroadcastMul4DSlow), as on current
# tflite-micro main. Each op computes one per-element function; the
# broadcast variants only walk the output shape (BroadcastBinaryOpSimple,
# numpy's broadcasting rules: dimensions aligned from the end, a dimension
# of 1 repeats), and ProcessBroadcastShapes picks the flat elementwise loop
# when the shapes, left-padded with 1s, are equal. Either operand may be a
# constant tensor (read from its buffer, as PAD reads its paddings).
BINARY_MAX_RANK = 6  # RuntimeShape::kMaxSmallSize in TFLM


def quantize_multiplier_smaller_than_one_exp(real):
    """QuantizeMultiplierSmallerThanOneExp: QuantizeMultiplier of a double
    in (0, 1), whose shift must come out <= 0 (TFLITE_CHECKs: prepare fails
    otherwise)."""
    if not 0.0 < real < 1.0:
        raise ValueError(f"rescale factor {real} is not in (0, 1)")
    m, shift = quantize_multiplier(real)
    assert shift <= 0
    return m, shift


def _fused_activation(op, fid):
    """The options' fused activation; an operator written without options
    gets NONE (the parser's zero-filled params)."""
    return _scalar(op.options, fid, N.Int8Flags) if op.options is not None else S.ACT_NONE


def _operand(op, t, v, k):
    """Input k as int64: a constant tensor's data, else the computed value."""
    i = op.inputs[k]
    value = t[i].data if t[i].data is not None else v[i]
    if t[i].dtype != np.int8:
        raise NotImplementedError(f"operand {k} is not int8")
    return np.asarray(value).astype(np.int64)


def _binary(op, t, v, name, f):
    """Applies the int64 per-element function f(a, b) to the two operands
    broadcast against each other; returns the result in the output's shape."""
    a, b, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    if max(len(a.shape), len(b.shape), len(y.shape)) > BINARY_MAX_RANK:
        raise NotImplementedError(f"{name}: more than {BINARY_MAX_RANK} dimensions")
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"{name}: shapes {a.shape} and {b.shape} do not broadcast") from None
    if np.broadcast_shapes(shape, y.shape) != y.shape:
        raise ValueError(f"{name}: output shape {y.shape} is not the broadcast {shape}")
    out = f(_operand(op, t, v, 0), _operand(op, t, v, 1))
    return np.broadcast_to(out, y.shape)


def add_sub_params(scale1, scale2, output_scale, in_float):
    """The three (multiplier, shift) pairs of the int8 ADD / SUB general
    path (left_shift 20): input k rescaled by scale_k / twice_max_input_scale
    (twice_max = 2 * max(scale1, scale2)), the sum by twice_max / (2^20 *
    output_scale), each through QuantizeMultiplierSmallerThanOneExp.
    CalculateOpDataAdd forms these in double; CalculateOpDataSub in float
    (`const float twice_max_input_scale`, float quotients cast to double
    afterwards), so in_float=True is SUB."""
    if in_float:
        f = np.float32
        twice_max = f(2) * max(f(scale1), f(scale2))
        reals = (f(scale1) / twice_max, f(scale2) / twice_max,
                 twice_max / (f(1 << ADD_LEFT_SHIFT) * f(output_scale)))
    else:
        s1, s2, so = (float(np.float32(s)) for s in (scale1, scale2, output_scale))
        twice_max = 2.0 * max(s1, s2)
        reals = (s1 / twice_max, s2 / twice_max, twice_max / ((1 << ADD_LEFT_SHIFT) * so))
    return [quantize_multiplier_smaller_than_one_exp(float(r)) for r in reals]


def _add_sub(op, t, v, name, sign, fid):
    """AddFunc (reference_integer_ops) / the BroadcastQuantSubSlow lambda
    (reference_ops, the same as SubElementwise): per element
      shifted_k = (q_k - zero_point_k) * 2^20                       (int32)
      scaled_k  = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                      shifted_k, multiplier_k, shift_k)
      raw       = scaled_1 + sign * scaled_2
      out       = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                      raw, output_multiplier, output_shift) + output zero point
    clamped to the fused activation's range. SmallerThanOneExp is
    RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x, m), -shift)."""
    a, b, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    (m1, s1), (m2, s2), (mo, so) = add_sub_params(a.scale[0], b.scale[0], y.scale[0],
                                                  in_float=sign < 0)
    za, zb, zy = int(a.zero_point[0]), int(b.zero_point[0]), int(y.zero_point[0])
    lo, hi = activation_range(_fused_activation(op, fid), y)

    def f(qa, qb):
        raw = (multiply_by_quantized_multiplier((qa - za) << ADD_LEFT_SHIFT, m1, s1)
               + sign * multiply_by_quantized_multiplier((qb - zb) << ADD_LEFT_SHIFT, m2, s2))
        return np.clip(multiply_by_quantized_multiplier(raw, mo, so) + zy, lo, hi)
    return _binary(op, t, v, name, f).astype(np.int8)


def add(op, t, v):
    """ADD int8: CalculateOpDataAdd (double arithmetic) + AddFunc."""
    return _add_sub(op, t, v, "ADD", 1, S.ADD_FUSED_ACTIVATION)


def sub(op, t, v):
    """SUB int8: CalculateOpDataSub (float arithmetic) + the same function
    with the rescaled second input subtracted."""
    return _add_sub(op, t, v, "SUB", -1, S.SUB_FUSED_ACTIVATION)


def mul_params(scale1, scale2, output_scale):
    """CalculateOpDataMul: QuantizeMultiplier(double(scale1) * double(scale2)
    / double(output_scale)); the shift may be positive (a rescale >= 1)."""
    s1, s2, so = (float(np.float32(s)) for s in (scale1, scale2, output_scale))
    return quantize_multiplier(s1 * s2 / so)


def mul(op, t, v):
    """MUL int8: mul_params + MulElementwise / the BroadcastMul6DSlow
    lambda: per element
      product = (q_1 - zero_point_1) * (q_2 - zero_point_2)          (int32)
      out     = MultiplyByQuantizedMultiplier(product, multiplier, shift)
                + output zero point
    clamped to the fused activation's range. MultiplyByQuantizedMultiplier
    (int32 overload, double rounding) shifts left by max(shift, 0) first,
    in plain int32 (it would overflow, undefined, only for rescales of about
    2^15 and more: rejected here), then RoundingDivideByPOT(
    SaturatingRoundingDoublingHighMul(x, m), max(-shift, 0))."""
    a, b, y = t[op.inputs[0]], t[op.inputs[1]], t[op.outputs[0]]
    m, shift = mul_params(a.scale[0], b.scale[0], y.scale[0])
    za, zb, zy = int(a.zero_point[0]), int(b.zero_point[0]), int(y.zero_point[0])
    lo, hi = activation_range(_fused_activation(op, S.MUL_FUSED_ACTIVATION), y)

    def f(qa, qb):
        product = (qa - za) * (qb - zb)
        if shift > 0 and np.any(np.abs(product) << shift > INT32_MAX):
            raise ValueError(f"MUL: product << {shift} overflows int32")
        return np.clip(multiply_by_quantized_multiplier(product, m, shift) + zy, lo, hi)
    return _binary(op, t, v, "MUL", f).astype(np.int8)


# --- elementwise int8 activations (tensorflow/lite/micro/kernels) -----------

def _f32(x):
    return np.float32(x)


def relu(op, t, v):
    """CalculateReluOpData + ReluQuantized: requantize, then clamp at the
    quantized 0.0."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    in_zp, out_zp = int(x.zero_point[0]), int(y.zero_point[0])
    m, shift = quantize_multiplier(float(_f32(x.scale[0])) / float(_f32(y.scale[0])))
    lo = max(INT8_MIN, out_zp)
    out = out_zp + multiply_by_quantized_multiplier(v[op.inputs[0]].astype(np.int64) - in_zp,
                                                    m, shift)
    return np.clip(out, lo, INT8_MAX).astype(np.int8)


def relu6(op, t, v):
    """Relu6Quantized: clamp to [zero point, quantized 6.0] in the input's
    quantization (which the output keeps)."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    if x.scale[0] != y.scale[0] or x.zero_point[0] != y.zero_point[0]:
        raise ValueError("RELU6 needs the same input and output quantization")
    zp = int(x.zero_point[0])
    six = round_half_away(float(_f32(6.0) / _f32(x.scale[0]))) + zp
    six = min(max(six, INT8_MIN), INT8_MAX)
    zero = min(max(zp, INT8_MIN), INT8_MAX)
    return np.minimum(np.maximum(v[op.inputs[0]], zero), six).astype(np.int8)


def leaky_relu(op, t, v):
    """CalculateOpDataLeakyRelu (scales formed in float) + QuantizeLeakyRelu."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    alpha = _f32(_scalar(op.options, S.LEAKY_RELU_ALPHA, N.Float32Flags, 0.0))
    in_s, out_s = _f32(x.scale[0]), _f32(y.scale[0])
    m_alpha, s_alpha = quantize_multiplier(float(_f32(in_s * alpha) / out_s))
    m_id, s_id = quantize_multiplier(float(in_s / out_s))
    d = v[op.inputs[0]].astype(np.int64) - int(x.zero_point[0])
    out = int(y.zero_point[0]) + np.where(
        d >= 0, multiply_by_quantized_multiplier(d, m_id, s_id),
        multiply_by_quantized_multiplier(d, m_alpha, s_alpha))
    return np.clip(out, INT8_MIN, INT8_MAX).astype(np.int8)


def quantize(op, t, v):
    """QUANTIZE to int8: from int8, reference_ops::Requantize; from float32,
    reference_ops::AffineQuantize (x / scale in float, rounded half away
    from zero, plus the zero point, clamped)."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    if x.dtype == np.float32:
        r = np.asarray(v[op.inputs[0]], np.float32) / _f32(y.scale[0])
        r = r.astype(np.float64)  # exact: half-away rounding below is too
        r = np.sign(r) * np.floor(np.abs(r) + 0.5)
        r = np.clip(np.nan_to_num(r, nan=-255.0), -255.0, 255.0)
        return np.clip(r.astype(np.int64) + int(y.zero_point[0]), INT8_MIN,
                       INT8_MAX).astype(np.int8)
    m, shift = quantize_multiplier(float(_f32(x.scale[0])) / float(_f32(y.scale[0])))
    out = multiply_by_quantized_multiplier(
        v[op.inputs[0]].astype(np.int64) - int(x.zero_point[0]), m, shift) + int(y.zero_point[0])
    return np.clip(out, INT8_MIN, INT8_MAX).astype(np.int8)


def dequantize(op, t, v):
    """DEQUANTIZE int8 to float32: reference_ops::Dequantize,
    float(double(scale) * (q - zero_point))."""
    x = t[op.inputs[0]]
    q = v[op.inputs[0]].astype(np.int64) - int(x.zero_point[0])
    return (np.float64(_f32(x.scale[0])) * q.astype(np.float64)).astype(np.float32)


def concatenation(op, t, v):
    """CONCATENATION: TFLM's int8 kernel copies the inputs' bytes along the
    axis (negative counts from the end) whatever their scales and zero
    points; its Prepare rejects a fused activation."""
    if _fused_activation(op, S.CONCAT_FUSED_ACTIVATION) != S.ACT_NONE:
        raise NotImplementedError("CONCATENATION with a fused activation")
    axis = _scalar(op.options, S.CONCAT_AXIS, N.Int32Flags) if op.options is not None else 0
    pieces = [t[i].data if t[i].data is not None else v[i] for i in op.inputs]
    if any(np.asarray(p).dtype != np.int8 for p in pieces):
        raise NotImplementedError("CONCATENATION of tensors that are not int8")
    rank = len(t[op.outputs[0]].shape)
    return np.concatenate(pieces, axis=axis + rank if axis < 0 else axis)


def _constant_ints(t, i):
    if t[i].data is None:
        raise NotImplementedError("SLICE / STRIDED_SLICE indices must be constant")
    return [int(a) for a in np.asarray(t[i].data).ravel()]


def _strided_axis(op, g, extent, begin, end, stride):
    """(first, stop) of axis g as TFLM's StridedSliceStartForAxis and
    StridedSliceEndForAxis resolve them for a positive stride."""
    def bit(field):
        return (_scalar(op.options, field, N.Int32Flags) >> g) & 1 if op.options is not None else 0
    offset = _scalar(op.options, S.STRIDED_SLICE_OFFSET, N.BoolFlags) \
        if op.options is not None else 0
    first = begin + extent if begin < 0 else begin
    first = 0 if bit(S.STRIDED_SLICE_BEGIN_MASK) else min(max(first, 0), extent)
    if bit(S.STRIDED_SLICE_SHRINK_AXIS_MASK):
        return first, first if first >= extent else first + 1
    stop = end + first if offset else end
    stop = stop + extent if stop < 0 else stop
    stop = extent if bit(S.STRIDED_SLICE_END_MASK) else min(max(stop, 0), extent)
    return first, stop


def strided_slice(op, t, v):
    """STRIDED_SLICE with positive strides and no ellipsis or new-axis mask:
    one begin, end and stride per input dimension (TFLM reads as many),
    each axis resolved as _strided_axis, the box reshaped to the output
    (shrunk axes dropped)."""
    x = v[op.inputs[0]]
    begin, end, strides = (_constant_ints(t, i) for i in op.inputs[1:4])
    if op.options is not None and (_scalar(op.options, S.STRIDED_SLICE_ELLIPSIS_MASK,
                                           N.Int32Flags)
                                   or _scalar(op.options, S.STRIDED_SLICE_NEW_AXIS_MASK,
                                              N.Int32Flags)):
        raise NotImplementedError("STRIDED_SLICE with an ellipsis or new-axis mask")
    if not len(begin) == len(end) == len(strides) == x.ndim:
        raise ValueError("STRIDED_SLICE needs one begin, end and stride per input dimension")
    box = []
    for g, (b, e, s) in enumerate(zip(begin, end, strides)):
        if s <= 0:
            raise NotImplementedError("STRIDED_SLICE with a stride <= 0")
        first, stop = _strided_axis(op, g, x.shape[g], b, e, s)
        box.append(slice(first, max(stop, first), s))
    return x[tuple(box)].reshape(t[op.outputs[0]].shape)


def slice_op(op, t, v):
    """SLICE: begin and size per axis (size -1: to the end), as
    reference_ops::Slice."""
    x = v[op.inputs[0]]
    begin, size = _constant_ints(t, op.inputs[1]), _constant_ints(t, op.inputs[2])
    box = tuple(slice(b, x.shape[d] if n == -1 else b + n)
                for d, (b, n) in enumerate(zip(begin, size)))
    return x[box]


def transpose(op, t, v):
    """TRANSPOSE: reference_ops::Transpose permutes the int8 bytes."""
    return np.transpose(v[op.inputs[0]], _constant_ints(t, op.inputs[1]))


def nearest_index_map(in_size, out_size, align_corners, half_pixel_centers):
    """reference_ops::GetNearestNeighbor for every output index, in float32
    as TFLM computes it (TfLiteRound rounds half away from zero)."""
    f32 = np.float32
    if align_corners and out_size > 1:
        scale = f32(in_size - 1) / f32(out_size - 1)
    else:
        scale = f32(in_size) / f32(out_size)
    offset = f32(0.5) if half_pixel_centers else f32(0.0)
    out = []
    for o in range(out_size):
        value = float((f32(o) + offset) * scale)  # exact in double
        if align_corners:
            index = int(math.copysign(math.floor(abs(value) + 0.5), value))
        else:
            index = math.floor(value)
        index = min(index, in_size - 1)
        if half_pixel_centers:
            index = max(0, index)
        out.append(index)
    return out


def resize_nearest_neighbor(op, t, v):
    """RESIZE_NEAREST_NEIGHBOR: reference_ops::ResizeNearestNeighbor copies
    the int8 bytes of the input pixel each output pixel maps to; the output
    size is the constant int32 [height, width] second input."""
    x = v[op.inputs[0]]
    out_h, out_w = _constant_ints(t, op.inputs[1])
    align = bool(_scalar(op.options, S.RESIZE_ALIGN_CORNERS, N.BoolFlags)) \
        if op.options is not None else False
    half = bool(_scalar(op.options, S.RESIZE_HALF_PIXEL_CENTERS, N.BoolFlags)) \
        if op.options is not None else False
    rows = nearest_index_map(x.shape[1], out_h, align, half)
    cols = nearest_index_map(x.shape[2], out_w, align, half)
    return x[:, rows][:, :, cols]


def pad(op, t, v):
    """Fills with the output zero point (the quantized 0.0), as TFLite does."""
    paddings = t[op.inputs[1]].data.astype(np.int64)
    return np.pad(v[op.inputs[0]], [tuple(p) for p in paddings], mode="constant",
                  constant_values=int(t[op.outputs[0]].zero_point[0]))


# --- SOFTMAX: gemmlowp fixed point (tensorflow/lite/kernels/internal) -------
# reference_ops::Softmax for int8 in and out, with the parameters TFLM's
# SoftmaxPrepare computes (PreprocessSoftmaxScaling, CalculateInputRadius).
SOFTMAX_SCALED_DIFF_INTEGER_BITS = 5
SOFTMAX_ACCUMULATION_INTEGER_BITS = 12


def _srdhm(a, b):
    return int(saturating_rounding_doubling_high_mul(a, b))


def _rdbp(x, exponent):
    return int(rounding_divide_by_pot(x, exponent))


def _wrap32(x):
    """The int32 a raw fixed-point add gives (it never overflows here)."""
    assert INT32_MIN <= x <= INT32_MAX, x
    return x


def _saturating_shift_left(x, exponent):
    """gemmlowp SaturatingRoundingMultiplyByPOT with a positive exponent."""
    threshold = (1 << (31 - exponent)) - 1
    if x > threshold:
        return INT32_MAX
    if x < -threshold:
        return INT32_MIN
    return x << exponent


def _exp_on_interval_between_negative_one_quarter_and_0_excl(a):
    """a is Q0.31 in [-1/4, 0); returns exp(a) in Q0.31."""
    constant_term = 1895147668
    constant_1_over_3 = 715827883
    x = _wrap32(a + (1 << 28))  # a + 1/8
    x2 = _srdhm(x, x)
    x3 = _srdhm(x2, x)
    x4 = _srdhm(x2, x2)
    x4_over_4 = _rdbp(x4, 2)
    poly = _rdbp(_wrap32(_srdhm(_wrap32(x4_over_4 + x3), constant_1_over_3) + x2), 1)
    return _wrap32(constant_term + _srdhm(constant_term, _wrap32(x + poly)))


def exp_on_negative_values(a, integer_bits=SOFTMAX_SCALED_DIFF_INTEGER_BITS):
    """gemmlowp exp_on_negative_values: a is Q(integer_bits).(31 - integer_bits),
    a <= 0; returns exp(a) in Q0.31."""
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    mask = one_quarter - 1
    a_mod_quarter_minus_one_quarter = (a & mask) - one_quarter
    result = _exp_on_interval_between_negative_one_quarter_and_0_excl(
        _saturating_shift_left(a_mod_quarter_minus_one_quarter, integer_bits))
    remainder = a_mod_quarter_minus_one_quarter - a
    for exponent, multiplier in ((-2, 1672461947), (-1, 1302514674), (0, 790015084),
                                 (1, 290630308), (2, 39332535), (3, 720401), (4, 242)):
        if integer_bits > exponent and remainder & (1 << (fractional_bits + exponent)):
            result = _srdhm(result, multiplier)
    return INT32_MAX if a == 0 else result


def _half_denominator_reciprocal(a):
    """The Newton-Raphson division gemmlowp's one_over_one_plus_x_for_x_in_0_1
    and one_minus_x_over_one_plus_x_for_x_in_0_1 share: for Q0.31 a in [0, 1),
    half_denominator = RoundingHalfSum(a, F0::One()) (One is INT32_MAX with no
    integer bits), then 1 / half_denominator = 2 / (1 + a) as F2 (Q2.29)."""
    s = a + INT32_MAX + (1 if a + INT32_MAX >= 0 else -1)
    half_denominator = s // 2 if s >= 0 else -(-s // 2)  # RoundingHalfSum(a, One)
    constant_48_over_17 = 1515870810
    constant_neg_32_over_17 = -1010580540
    x = _wrap32(constant_48_over_17 + _srdhm(half_denominator, constant_neg_32_over_17))
    for _ in range(3):
        half_denominator_times_x = _srdhm(half_denominator, x)
        one_minus = _wrap32((1 << 29) - half_denominator_times_x)  # F2::One() - ...
        x = _wrap32(x + _saturating_shift_left(_srdhm(x, one_minus), 2))  # Rescale<2>
    return x


def one_over_one_plus_x_for_x_in_0_1(a):
    """gemmlowp: 1 / (1 + a) for Q0.31 a in [0, 1), as Q0.31:
    Rescale<0>(ExactMulByPot<-1>(x)), a saturating left shift by 1."""
    return _saturating_shift_left(_half_denominator_reciprocal(a), 1)


def one_minus_x_over_one_plus_x_for_x_in_0_1(a):
    """gemmlowp: (1 - a) / (1 + a) for Q0.31 a in [0, 1), as Q0.31:
    Rescale<0>(x - F2::One()), a saturating left shift by 2."""
    x = _half_denominator_reciprocal(a)
    return _saturating_shift_left(_wrap32(x - (1 << 29)), 2)


def softmax_params(beta, input_scale):
    """TFLM SoftmaxPrepare for int8: (input_multiplier, input_left_shift, diff_min)."""
    bits = SOFTMAX_SCALED_DIFF_INTEGER_BITS
    real = min(beta * input_scale * (1 << (31 - bits)), (1 << 31) - 1.0)
    multiplier, left_shift = quantize_multiplier(real)
    if real <= 1.0 or left_shift < 0:
        raise ValueError(f"SOFTMAX: beta * input scale {beta * input_scale} is too small")
    radius = math.floor(((1 << bits) - 1) * (1 << (31 - bits)) / (1 << left_shift))
    return multiplier, left_shift, -radius


def softmax_row(row, multiplier, left_shift, diff_min):
    """reference_ops::Softmax on one row of int8 values, int8 out."""
    max_in_row = max(row)
    exps = []
    for value in row:
        diff = value - max_in_row
        if diff >= diff_min:
            rescaled = _srdhm(diff * (1 << left_shift), multiplier)
            exps.append(exp_on_negative_values(rescaled))
        else:
            exps.append(None)
    sum_of_exps = sum(_rdbp(e, SOFTMAX_ACCUMULATION_INTEGER_BITS) for e in exps if e is not None)
    headroom_plus_one = 32 - sum_of_exps.bit_length()  # CountLeadingZeros
    num_bits_over_unit = SOFTMAX_ACCUMULATION_INTEGER_BITS - headroom_plus_one
    shifted_sum_minus_one = ((sum_of_exps << headroom_plus_one) & 0xFFFFFFFF) - (1 << 31)
    shifted_scale = one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one)
    out = []
    for e in exps:
        if e is None:
            out.append(INT8_MIN)
            continue
        unsat = _rdbp(_srdhm(shifted_scale, e), num_bits_over_unit + 31 - 8)
        out.append(max(min(unsat + INT8_MIN, INT8_MAX), INT8_MIN))
    return out


def softmax(op, t, v):
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    if int(y.zero_point[0]) != INT8_MIN or np.float32(y.scale[0]) != np.float32(1.0 / 256):
        raise ValueError("SOFTMAX: int8 output must have scale 1/256 and zero point -128")
    beta = float(np.float32(_scalar(op.options, S.SOFTMAX_BETA, N.Float32Flags, 0.0)))
    params = softmax_params(beta, float(np.float32(x.scale[0])))
    rows = v[op.inputs[0]].reshape(-1, x.shape[-1]).astype(np.int64)
    out = [softmax_row([int(a) for a in row], *params) for row in rows]
    return np.array(out, np.int8).reshape(y.shape)


# --- LOGISTIC and TANH: gemmlowp fixed point (int8 in and out) --------------
# TFLM's prepare (micro/kernels/logistic_common.cc
# CalculateArithmeticOpDataLogistic, micro/kernels/tanh.cc
# CalculateArithmeticOpData) and reference_integer_ops::Logistic / Tanh
# (kernels/internal/reference/integer_ops/logistic.h, tanh.h). The input is
# rescaled to Q4.27 and fed to gemmlowp's logistic / tanh (fixedpoint.h),
# whose Q0.31 result is rounded to the fixed output quantization the kernels
# assume: LOGISTIC 1/256 with zero point -128, TANH 1/128 with zero point 0.
SIGMOID_TANH_INPUT_INTEGER_BITS = 4
LOGISTIC_OUTPUT_SCALE, LOGISTIC_OUTPUT_ZERO_POINT = 1.0 / 256, INT8_MIN
TANH_OUTPUT_SCALE, TANH_OUTPUT_ZERO_POINT = 1.0 / 128, 0


def logistic_fixed(a, integer_bits=SIGMOID_TANH_INPUT_INTEGER_BITS):
    """gemmlowp logistic: a is Q(integer_bits).(31 - integer_bits); returns
    1 / (1 + exp(-a)) in Q0.31. logistic_on_positive_values(|a|) =
    one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-|a|)); a
    negative a takes One - that (One = INT32_MAX), a zero a exactly 1/2."""
    if a == 0:
        return 1 << 30
    abs_input = a if a > 0 else _wrap32(-a)
    result_if_positive = one_over_one_plus_x_for_x_in_0_1(
        exp_on_negative_values(-abs_input, integer_bits))
    return result_if_positive if a > 0 else _wrap32(INT32_MAX - result_if_positive)


def tanh_fixed(a, integer_bits=SIGMOID_TANH_INPUT_INTEGER_BITS):
    """gemmlowp tanh: a is Q(integer_bits).(31 - integer_bits); returns
    tanh(a) in Q0.31. neg_tanh_on_negative_values(-|a|) =
    one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(
    ExactMulByPot<1>(-|a|))): the same raw value read with one more integer
    bit is 2 * (-|a|), so (1 - e^-2|a|) / (1 + e^-2|a|) = tanh(|a|); the sign
    is put back by a plain negation, and tanh(0) is 0."""
    if a == 0:
        return 0
    n = a if a < 0 else _wrap32(-a)
    t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(n, integer_bits + 1))
    return _wrap32(-t) if a < 0 else t


def sigmoid_tanh_params(input_scale):
    """TFLM's int8 prepare of LOGISTIC and TANH (the same code in both):
    (input_multiplier, input_left_shift, input_range_radius).

    input_real_multiplier = double(float input scale) * 2^(31 - 4);
    q, input_left_shift = frexp(that); input_multiplier = TfLiteRound(q * 2^31)
    (no QuantizeMultiplier: a float scale has 24 significant bits, so q * 2^31
    is an integer below 2^31); input_range_radius = CalculateInputRadius(4,
    input_left_shift, 31) = floor((2^4 - 1) * 2^27 / 2^input_left_shift)."""
    bits = SIGMOID_TANH_INPUT_INTEGER_BITS
    real = float(_f32(input_scale)) * (1 << (31 - bits))
    q, left_shift = math.frexp(real)
    if left_shift < 0:  # CalculateInputRadius would shift by a negative amount
        raise ValueError(f"input scale {input_scale} is below 2^-28")
    multiplier = round_half_away(q * (1 << 31))
    radius = math.floor(((1 << bits) - 1) * (1 << (31 - bits)) / (1 << left_shift))
    return multiplier, left_shift, radius


def _sigmoid_tanh_table(input_scale, input_zero_point, fixed, output_shift, output_zero_point):
    """reference_integer_ops::Logistic / Tanh for int8 on every int8 input:
    the 256 outputs, indexed by input + 128. Inputs at or beyond the radius
    saturate to -128 / 127 (`input <= -radius` is tested first: with radius
    0, from input scales of 16 up, the zero point itself gives -128); the others are
    rescaled by MultiplyByQuantizedMultiplier to Q4.27 (the radius keeps
    input * 2^left_shift inside int32), go through `fixed`, and the Q0.31
    result is RoundingDivideByPOT'd by `output_shift`, offset and clamped."""
    multiplier, left_shift, radius = sigmoid_tanh_params(input_scale)
    table = []
    for value in range(INT8_MIN, INT8_MAX + 1):
        x = value - input_zero_point
        if x <= -radius:
            table.append(INT8_MIN)
        elif x >= radius:
            table.append(INT8_MAX)
        else:
            a = int(multiply_by_quantized_multiplier(x, multiplier, left_shift))
            out = _rdbp(fixed(a), output_shift) + output_zero_point
            table.append(min(max(out, INT8_MIN), INT8_MAX))
    return np.array(table, np.int64)


def logistic_table(input_scale, input_zero_point):
    """LOGISTIC int8: RoundingDivideByPOT(logistic Q0.31, 31 - 8) - 128."""
    return _sigmoid_tanh_table(input_scale, input_zero_point, logistic_fixed,
                               31 - 8, LOGISTIC_OUTPUT_ZERO_POINT)


def tanh_table(input_scale, input_zero_point):
    """TANH int8: RoundingDivideByPOT(tanh Q0.31, 31 - 7), no offset."""
    return _sigmoid_tanh_table(input_scale, input_zero_point, tanh_fixed,
                               31 - 7, TANH_OUTPUT_ZERO_POINT)


def _check_fixed_output(name, y, scale, zero_point):
    """The output quantization the kernel hard-codes. TFLM enforces only
    LOGISTIC's zero point -128 (TANH: nothing) and would silently compute
    with these constants otherwise; TFLite's LOGISTIC prepare also requires
    scale == 1/256 and the converter writes exactly these (operator_property.cc
    restricted_value_int8), so anything else is rejected here."""
    if int(y.zero_point[0]) != zero_point or _f32(y.scale[0]) != _f32(scale):
        raise ValueError(f"{name}: int8 output must have scale 1/{round(1 / scale)} and "
                         f"zero point {zero_point}, not {float(y.scale[0])} and "
                         f"{int(y.zero_point[0])}")


def _lookup(table, values):
    return table[values.astype(np.int64) - INT8_MIN].astype(np.int8)


def logistic(op, t, v):
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    _check_fixed_output("LOGISTIC", y, LOGISTIC_OUTPUT_SCALE, LOGISTIC_OUTPUT_ZERO_POINT)
    return _lookup(logistic_table(x.scale[0], int(x.zero_point[0])), v[op.inputs[0]])


def tanh(op, t, v):
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    _check_fixed_output("TANH", y, TANH_OUTPUT_SCALE, TANH_OUTPUT_ZERO_POINT)
    return _lookup(tanh_table(x.scale[0], int(x.zero_point[0])), v[op.inputs[0]])


# --- HARD_SWISH: int16 fixed point (int8 in and out) -------------------------
# TFLM's HardSwishPrepare (micro/kernels/hard_swish_common.cc) and
# reference_ops::HardSwish<int8_t> (kernels/internal/reference/hard_swish.h):
# x * relu6(x + 3) / 6 as the input on a pre-shift output scale times a
# "relu-ish" factor in [0, 1] that maps [-3, 3] to [0, 1], all in int16.
INT16_MIN, INT16_MAX = -(1 << 15), (1 << 15) - 1
HARD_SWISH_HIRES_SHIFT = 7       # input_value * 2^7, still inside int16
HARD_SWISH_RELUISH_SCALE = 3.0 / 32768.0  # 3.0 is int16 32768


def _int16(x):
    """static_cast<int16_t>: keep the low 16 bits, signed."""
    return ((x + (1 << 15)) & 0xFFFF) - (1 << 15)


def _trunc_div(a, b):
    """C++ integer division (rounds toward zero), b > 0."""
    return a // b if a >= 0 else -(-a // b)


def _srdhm16(a, b):
    """gemmlowp SaturatingRoundingDoublingHighMul<int16_t> (VQRDMULH)."""
    if a == b == INT16_MIN:
        return INT16_MAX
    ab = a * b
    return _trunc_div(ab + ((1 << 14) if ab >= 0 else 1 - (1 << 14)), 1 << 15)


def _sdhm16(a, b):
    """reference_ops::SaturatingDoublingHighMul (hard_swish.h): the product
    doubled, high half, truncated toward zero (SQDMULH)."""
    if a == b == INT16_MIN:
        return INT16_MAX
    return _trunc_div(a * b, 1 << 15)


def _rdbp16(x, exponent):
    """gemmlowp RoundingDivideByPOT<int16_t>, 0 <= exponent <= 31. The mask
    (1 << exponent) - 1 is cast to int16, so from exponent 16 on it is all
    ones and the result is 1 for x >= 0 and -1 for x < 0, as in C++."""
    mask = _int16((1 << exponent) - 1)
    threshold = _int16((mask >> 1) + (1 if x < 0 else 0))
    return _int16((x >> exponent) + (1 if (x & mask) > threshold else 0))


def _saturating_left_shift16(value, amount):
    """reference_ops::SaturatingLeftShift (gemmlowp's saturating ShiftLeft in
    older TFLite): value * 2^amount clamped to int16."""
    return min(max(value * (1 << amount), INT16_MIN), INT16_MAX)


def downscale_int32_to_int16_multiplier(m):
    """DownScaleInt32ToInt16Multiplier: round a Q0.31 multiplier to Q0.15."""
    if m >= INT32_MAX - (1 << 15):
        return INT16_MAX
    return (m + (1 << 15)) >> 16


@dataclass
class HardSwishParams:
    input_zero_point: int
    output_zero_point: int
    reluish_multiplier: int      # reluish_multiplier_fixedpoint_int16
    reluish_exponent: int
    output_multiplier: int       # output_multiplier_fixedpoint_int16
    output_exponent: int


def hard_swish_params(input_scale, input_zero_point, output_scale, output_zero_point):
    """TFLM HardSwishPrepare for int8, in float where it is:
    hires_input_scale = (1.0f / 128.0f) * input_scale; reluish_scale =
    3.0f / 32768.0f; output_multiplier = double(hires_input_scale /
    output_scale) and reluish_multiplier = double(hires_input_scale /
    reluish_scale), each through QuantizeMultiplier then
    DownScaleInt32ToInt16Multiplier. TFLM requires output exponent <= 0."""
    hires_input_scale = _f32(1.0 / 128.0) * _f32(input_scale)
    reluish_scale = _f32(3.0) / _f32(32768.0)
    out_m, out_exp = quantize_multiplier(float(hires_input_scale / _f32(output_scale)))
    if out_exp > 0:
        raise ValueError(f"HARD_SWISH: output_multiplier_exponent {out_exp} > 0 (input scale "
                         f"{float(input_scale)} / 128 is not below output scale "
                         f"{float(output_scale)})")
    rel_m, rel_exp = quantize_multiplier(float(hires_input_scale / reluish_scale))
    return HardSwishParams(int(input_zero_point), int(output_zero_point),
                           downscale_int32_to_int16_multiplier(rel_m), rel_exp,
                           downscale_int32_to_int16_multiplier(out_m), out_exp)


def hard_swish_value(value, p):
    """reference_ops::HardSwish<int8_t> on one int8 value."""
    input_value = _int16(value - p.input_zero_point)
    hires = _int16(input_value * (1 << HARD_SWISH_HIRES_SHIFT))
    preshift_output = _srdhm16(hires, p.output_multiplier)
    reluish = hires
    if p.reluish_exponent > 0:  # all but the last bit of the left shift
        reluish = _saturating_left_shift16(reluish, p.reluish_exponent - 1)
    reluish = _srdhm16(reluish, p.reluish_multiplier)
    if p.reluish_exponent > 0:  # the last bit: here saturation counts
        reluish = _saturating_left_shift16(reluish, 1)
    if p.reluish_exponent < 0:
        reluish = _rdbp16(reluish, -p.reluish_exponent)
    reluish = (reluish + (1 << 15)) >> 1  # [-1, 1] -> [0, 1]
    out = _rdbp16(_sdhm16(reluish, preshift_output), -p.output_exponent)
    out = _int16(out + p.output_zero_point)  # int16_t output_value += zero point
    return min(max(out, INT8_MIN), INT8_MAX)


def hard_swish_table(input_scale, input_zero_point, output_scale, output_zero_point):
    """HARD_SWISH int8 on every int8 input, indexed by input + 128."""
    p = hard_swish_params(input_scale, input_zero_point, output_scale, output_zero_point)
    return np.array([hard_swish_value(q, p) for q in range(INT8_MIN, INT8_MAX + 1)], np.int64)


def hard_swish(op, t, v):
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    table = hard_swish_table(x.scale[0], int(x.zero_point[0]), y.scale[0], int(y.zero_point[0]))
    return _lookup(table, v[op.inputs[0]])


def reshape(op, t, v):
    return v[op.inputs[0]].reshape(t[op.outputs[0]].shape)


# --- MEAN: integer rescale with 1/n folded into the multiplier ----------------
# TFLM's PrepareMeanOrSumHelper and EvalMeanHelper -> EvalIntegerMean
# (micro/kernels/reduce_common.cc) and reference_ops::QuantizedMeanOrSum with
# compute_sum = false (kernels/internal/reference/reduce.h, reached through
# QuantizedMeanOrSumExtraArgs), as on current tflite-micro main. Every int8
# MEAN takes this one path, whatever its axes, keep_dims or quantization.
# Older TFLM had three int8 branches instead, with other roundings: keep_dims
# over 4D axes {1, 2} -> reference_integer_ops::Mean (rescale the centred sum,
# then divide by n rounding half away from zero), the same input and output
# quantization -> reference_ops::Mean (raw sum / n, truncated toward 0), else
# the float QuantizedMeanOrSum (TfLiteRound(float mean * scale + bias)).
MEAN_MAX_RANK = 5          # kMaxNumberOfAxis: temp_index[5]
MEAN_MAX_REDUCED_AXES = 2  # kMaxNumberOfReducedAxis: resolved_axis[2]


def resolve_axis(axes, rank):
    """reference_ops::ResolveAxis: a negative axis counts from the end
    (axis + rank), an axis out of [0, rank) fails the op, and a repeated
    axis is dropped (first occurrences, in order, are kept). A scalar
    input (rank 0) resolves no axis, whatever the list."""
    resolved = []
    if rank == 0:
        return resolved
    for a in axes:
        current = int(a) + rank if a < 0 else int(a)
        if not 0 <= current < rank:
            raise ValueError(f"MEAN: axis {int(a)} is out of range for rank {rank}")
        if current not in resolved:
            resolved.append(current)
    return resolved


def mean_params(input_scale, output_scale, num_elements):
    """PrepareMeanOrSumHelper's QuantizeMultiplier(double(input scale) /
    double(output scale)), then QuantizedMeanOrSum's 1/n folding:
    shift = min(floor(log2 n), 32, 31 + exponent); multiplier =
    int32((int64(multiplier) << shift) / n) (truncating, both positive);
    exponent -= shift. Returns (multiplier, exponent)."""
    m, exponent = quantize_multiplier(float(_f32(input_scale)) / float(_f32(output_scale)))
    shift = min(num_elements.bit_length() - 1, 32, 31 + exponent)  # 63 - CountLeadingZeros
    return (m << shift) // num_elements, exponent - shift


def mean(op, t, v):
    """MEAN int8 (keep_dims only shapes the output tensor; the kernel reads
    its element count): sum the raw int8 values over the resolved axes in
    int32, centre the sum as sum - input_zp * n, then
    MultiplyByQuantizedMultiplier(centred, multiplier, exponent) from
    mean_params, add the output zero point and clamp to int8."""
    x, y = t[op.inputs[0]], t[op.outputs[0]]
    axis = t[op.inputs[1]].data
    if axis is None:  # computed, or an empty constant (read_model gives it no data)
        empty = int(np.prod(t[op.inputs[1]].shape)) == 0
        axis = np.zeros(0, np.int32) if empty else v[op.inputs[1]]
    if len(x.shape) > MEAN_MAX_RANK:
        raise NotImplementedError(f"MEAN: input rank {len(x.shape)} > {MEAN_MAX_RANK}")
    axes = resolve_axis(np.asarray(axis).ravel(), len(x.shape))
    if len(axes) > MEAN_MAX_REDUCED_AXES:
        raise NotImplementedError(f"MEAN over {len(axes)} distinct axes: TFLM resolves them "
                                  f"into an array of {MEAN_MAX_REDUCED_AXES}")
    kept = [d for i, d in enumerate(x.shape) if i not in axes]
    if int(np.prod(kept)) != int(np.prod(y.shape)):
        raise ValueError(f"MEAN: output shape {y.shape} does not hold the {kept} means")
    if 0 in x.shape:  # QuantizedMeanOrSum returns early with zeroed outputs
        return np.zeros(y.shape, np.int8)
    n = int(np.prod([x.shape[a] for a in axes]))
    centred = (v[op.inputs[0]].astype(np.int64).sum(axis=tuple(axes))
               - int(x.zero_point[0]) * n)
    assert np.all((centred >= INT32_MIN) & (centred <= INT32_MAX))  # static_cast<int32_t>
    multiplier, exponent = mean_params(x.scale[0], y.scale[0], n)
    out = multiply_by_quantized_multiplier(centred, multiplier, exponent) + int(y.zero_point[0])
    return np.clip(out, INT8_MIN, INT8_MAX).astype(np.int8).reshape(y.shape)


def _batched(kernel):
    """A window kernel (which reads image 0 of its input) applied to each
    image of a batched input, as TFLM's kernels loop over the batch."""
    def run_images(op, t, v):
        x = v[op.inputs[0]]
        images = []
        for n in range(x.shape[0]):
            one = dict(v)
            one[op.inputs[0]] = x[n:n + 1]
            images.append(kernel(op, t, one))
        return np.concatenate(images, axis=0)
    return run_images


KERNELS = {
    S.OP_ADD: add,
    S.OP_SUB: sub,
    S.OP_MUL: mul,
    S.OP_AVERAGE_POOL_2D: _batched(average_pool_2d),
    S.OP_CONV_2D: _batched(conv_2d),
    S.OP_DEPTHWISE_CONV_2D: _batched(depthwise_conv_2d),
    S.OP_FULLY_CONNECTED: fully_connected,
    S.OP_MAX_POOL_2D: _batched(max_pool_2d),
    S.OP_PAD: pad,
    S.OP_CONCATENATION: concatenation,
    S.OP_STRIDED_SLICE: strided_slice,
    S.OP_SLICE: slice_op,
    S.OP_TRANSPOSE: transpose,
    S.OP_RESIZE_NEAREST_NEIGHBOR: resize_nearest_neighbor,
    S.OP_MEAN: mean,
    S.OP_RESHAPE: reshape,
    S.OP_SQUEEZE: reshape,      # the output tensor declares the shape
    S.OP_EXPAND_DIMS: reshape,
    S.OP_SOFTMAX: softmax,
    S.OP_RELU: relu,
    S.OP_RELU6: relu6,
    S.OP_LEAKY_RELU: leaky_relu,
    S.OP_QUANTIZE: quantize,
    S.OP_DEQUANTIZE: dequantize,
    S.OP_LOGISTIC: logistic,
    S.OP_TANH: tanh,
    S.OP_HARD_SWISH: hard_swish,
}


def run(buf, x):
    """Runs the model in `buf` on x: every input's values one after another
    in input order (int8, or float32 for a float input; flat or shaped);
    returns every output's values, flat and one after another (one output
    keeps its shape)."""
    tensors, ops, inputs, outputs = read_model(buf)
    flat = np.asarray(x).ravel()
    values, at = {}, 0
    for i in inputs:
        n = int(np.prod(tensors[i].shape))
        values[i] = flat[at:at + n].astype(tensors[i].dtype).reshape(tensors[i].shape)
        at += n
    if at != flat.size:
        raise ValueError(f"input holds {flat.size} values, the model's inputs {at}")
    # Only the operators the outputs depend on run (a patched output may
    # stop before an unsupported SOFTMAX).
    needed, live = set(outputs), []
    for op in reversed(ops):
        if op.outputs[0] in needed:
            live.append(op)
            needed.update(t for t in op.inputs if t >= 0)
    for op in reversed(live):
        if op.code not in KERNELS:
            raise NotImplementedError(f"builtin operator {op.code}")
        out = KERNELS[op.code](op, tensors, values)
        if out.shape != tensors[op.outputs[0]].shape:
            raise ValueError(f"op {op.code}: output shape {out.shape}, "
                             f"tensor says {tensors[op.outputs[0]].shape}")
        values[op.outputs[0]] = out
    if len(outputs) == 1:
        return values[outputs[0]]
    return np.concatenate([values[o].ravel() for o in outputs])


def main():
    if len(sys.argv) != 4:
        sys.exit(f"usage: {sys.argv[0]} MODEL.tflite IN.bin OUT.bin")
    with open(sys.argv[1], "rb") as f:
        buf = bytearray(f.read())
    tensors, _, inputs, _ = read_model(buf)
    # Every input's bytes one after another (one dtype: int8, or a single
    # float32 input).
    x = np.fromfile(sys.argv[2], dtype=tensors[inputs[0]].dtype)
    run(buf, x).tofile(sys.argv[3])


if __name__ == "__main__":
    main()
