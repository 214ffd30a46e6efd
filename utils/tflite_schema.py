"""TFLite FlatBuffer schema ids shared by make-tflite.py and tflite_numpy_ref.py.

Every number below comes from tensorflow/lite/schema/schema.fbs (file
identifier "TFL3"): a table's field id is its position in the table (a union
field takes two ids, its type and its value), an enum value is as declared,
and a BuiltinOptions type id is the union member's position counting NONE = 0.
Only what the two tools use is listed. The ids were checked against the
options tables of the real models in /work/shared/models and by round trips
through Arm NN's TfLiteParser (utils/check-make-tflite.py).
"""

import numpy as np

FILE_IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

# table Model
MODEL_VERSION = 0
MODEL_OPERATOR_CODES = 1
MODEL_SUBGRAPHS = 2
MODEL_DESCRIPTION = 3
MODEL_BUFFERS = 4
MODEL_NUM_FIELDS = 5

# table OperatorCode: deprecated_builtin_code is the byte that readers of the
# pre-2.4 schema (Arm NN 20.08) see; builtin_code is the newer int32 field.
OPCODE_DEPRECATED_BUILTIN_CODE = 0
OPCODE_VERSION = 2
OPCODE_BUILTIN_CODE = 3
OPCODE_NUM_FIELDS = 4

# table SubGraph
SUBGRAPH_TENSORS = 0
SUBGRAPH_INPUTS = 1
SUBGRAPH_OUTPUTS = 2
SUBGRAPH_OPERATORS = 3
SUBGRAPH_NAME = 4
SUBGRAPH_NUM_FIELDS = 5

# table Tensor
TENSOR_SHAPE = 0
TENSOR_TYPE = 1
TENSOR_BUFFER = 2
TENSOR_NAME = 3
TENSOR_QUANTIZATION = 4
TENSOR_NUM_FIELDS = 5

# table QuantizationParameters (ids 4 and 5 are the `details` union)
QUANT_SCALE = 2
QUANT_ZERO_POINT = 3
QUANT_QUANTIZED_DIMENSION = 6
QUANT_NUM_FIELDS = 7

# table Operator
OPERATOR_OPCODE_INDEX = 0
OPERATOR_INPUTS = 1
OPERATOR_OUTPUTS = 2
OPERATOR_BUILTIN_OPTIONS_TYPE = 3
OPERATOR_BUILTIN_OPTIONS = 4
OPERATOR_NUM_FIELDS = 5

# table Buffer (data is declared with force_align: 16)
BUFFER_DATA = 0
BUFFER_NUM_FIELDS = 1
BUFFER_ALIGNMENT = 16

# enum TensorType
TENSOR_FLOAT32 = 0
TENSOR_INT32 = 2
TENSOR_INT8 = 9

# enum BuiltinOperator
OP_ADD = 0
OP_AVERAGE_POOL_2D = 1
OP_CONCATENATION = 2
OP_CONV_2D = 3
OP_DEPTHWISE_CONV_2D = 4
OP_FULLY_CONNECTED = 9
OP_LOGISTIC = 14
OP_MAX_POOL_2D = 17
OP_MUL = 18
OP_RELU = 19
OP_RELU6 = 21
OP_RESHAPE = 22
OP_SQUEEZE = 43
OP_STRIDED_SLICE = 45
OP_SLICE = 65
OP_EXPAND_DIMS = 70
OP_SOFTMAX = 25
OP_TANH = 28
OP_PAD = 34
OP_TRANSPOSE = 39
OP_MEAN = 40
OP_SUB = 41
OP_LEAKY_RELU = 98
OP_QUANTIZE = 114
OP_DEQUANTIZE = 6
OP_HARD_SWISH = 117
OP_RESIZE_NEAREST_NEIGHBOR = 97

# union BuiltinOptions
OPTIONS_CONV_2D = 1
OPTIONS_DEPTHWISE_CONV_2D = 2
OPTIONS_POOL_2D = 5
OPTIONS_FULLY_CONNECTED = 8
OPTIONS_SOFTMAX = 9
OPTIONS_CONCATENATION = 10
OPTIONS_ADD = 11
OPTIONS_RESHAPE = 17
OPTIONS_MUL = 21
OPTIONS_PAD = 22
OPTIONS_TRANSPOSE = 26
OPTIONS_REDUCER = 27
OPTIONS_SUB = 28
OPTIONS_STRIDED_SLICE = 32
OPTIONS_SLICE = 48
OPTIONS_LEAKY_RELU = 66
OPTIONS_RESIZE_NEAREST_NEIGHBOR = 74

# enum Padding
PADDING_SAME = 0
PADDING_VALID = 1

# enum ActivationFunctionType
ACT_NONE = 0
ACT_RELU = 1
ACT_RELU_N1_TO_1 = 2
ACT_RELU6 = 3

# table StridedSliceOptions
STRIDED_SLICE_BEGIN_MASK = 0
STRIDED_SLICE_END_MASK = 1
STRIDED_SLICE_ELLIPSIS_MASK = 2
STRIDED_SLICE_NEW_AXIS_MASK = 3
STRIDED_SLICE_SHRINK_AXIS_MASK = 4
STRIDED_SLICE_OFFSET = 5

# table ConcatenationOptions
CONCAT_AXIS = 0
CONCAT_FUSED_ACTIVATION = 1

# table Conv2DOptions
CONV_PADDING = 0
CONV_STRIDE_W = 1
CONV_STRIDE_H = 2
CONV_FUSED_ACTIVATION = 3
CONV_DILATION_W = 4
CONV_DILATION_H = 5

# table DepthwiseConv2DOptions
DW_PADDING = 0
DW_STRIDE_W = 1
DW_STRIDE_H = 2
DW_DEPTH_MULTIPLIER = 3
DW_FUSED_ACTIVATION = 4
DW_DILATION_W = 5
DW_DILATION_H = 6

# table Pool2DOptions
POOL_PADDING = 0
POOL_STRIDE_W = 1
POOL_STRIDE_H = 2
POOL_FILTER_W = 3
POOL_FILTER_H = 4
POOL_FUSED_ACTIVATION = 5

# table FullyConnectedOptions (weights_format 1 stays DEFAULT)
FC_FUSED_ACTIVATION = 0

# table AddOptions (id 1, pot_scale_int16, matters for int16 only)
ADD_FUSED_ACTIVATION = 0

# table SubOptions (id 1, pot_scale_int16, matters for int16 only)
SUB_FUSED_ACTIVATION = 0

# table MulOptions
MUL_FUSED_ACTIVATION = 0

# table SoftmaxOptions
SOFTMAX_BETA = 0

# table LeakyReluOptions
LEAKY_RELU_ALPHA = 0

# table ReshapeOptions
RESHAPE_NEW_SHAPE = 0

# table ResizeNearestNeighborOptions
RESIZE_ALIGN_CORNERS = 0
RESIZE_HALF_PIXEL_CENTERS = 1

# table ReducerOptions (MEAN, SUM, REDUCE_MAX, ...): one bool
REDUCER_KEEP_DIMS = 0

# Operator versions the TFLite converter writes for these int8 ops (also
# what the models in /work/shared/models carry). LOGISTIC, TANH and MEAN are 2
# for int8 (3 is int16), HARD_SWISH has only version 1
# (tensorflow/lite/tools/versioning/op_version.cc, runtime_version.cc).
# ADD is 2 for int8 with or without broadcasting. SUB and MUL are 2 for
# int8 too, with two exceptions make-tflite.py writes through the functions
# below: SUB is 3 when it broadcasts and an input has more than 4
# dimensions, MUL is 3 when its rescale input1_scale * input2_scale /
# output_scale (float arithmetic) is >= 1.
INT8_OP_VERSION = {
    OP_ADD: 2,
    OP_SUB: 2,
    OP_MUL: 2,
    OP_AVERAGE_POOL_2D: 2,
    OP_CONCATENATION: 2,
    OP_TRANSPOSE: 2,
    OP_STRIDED_SLICE: 2,
    OP_SLICE: 2,
    OP_CONV_2D: 3,
    OP_DEPTHWISE_CONV_2D: 3,
    OP_FULLY_CONNECTED: 4,
    OP_MAX_POOL_2D: 2,
    OP_SQUEEZE: 1,
    OP_EXPAND_DIMS: 1,
    OP_RESHAPE: 1,
    OP_SOFTMAX: 2,
    OP_PAD: 2,
    OP_MEAN: 2,
    OP_RELU: 2,
    OP_RELU6: 2,
    OP_LEAKY_RELU: 2,
    OP_QUANTIZE: 2,
    OP_DEQUANTIZE: 2,
    OP_LOGISTIC: 2,
    OP_TANH: 2,
    OP_HARD_SWISH: 1,
    OP_RESIZE_NEAREST_NEIGHBOR: 2,
}


def sub_int8_version(input_shapes):
    """GetBuiltinOperatorVersion(SUB) for int8: 3 if the inputs' shapes
    differ (NeedBroadcastForBinaryInputs) and one has more than 4
    dimensions, else 2."""
    shapes = [tuple(s) for s in input_shapes]
    if len(set(shapes)) > 1 and max(len(s) for s in shapes) > 4:
        return 3
    return INT8_OP_VERSION[OP_SUB]


def mul_int8_version(input1_scale, input2_scale, output_scale):
    """GetBuiltinOperatorVersion(MUL) for int8: 3 if the float rescale
    input1_scale * input2_scale / output_scale is >= 1 (ext_options.mul
    holds the three float scales), else 2."""
    f = np.float32
    if f(input1_scale) * f(input2_scale) / f(output_scale) >= 1.0:
        return 3
    return INT8_OP_VERSION[OP_MUL]
