//===- Schema.h - The subset of the TFLite schema vmcu reads ----*- C++ -*-===//
//
// Field ids and enum values from tensorflow/lite/schema/schema.fbs (schema
// version 3). A field id is its position in the table declaration.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TARGET_TFLITE_SCHEMA_H
#define VMCU_LIB_TARGET_TFLITE_SCHEMA_H

#include <cstdint>

namespace mlir::vmcu::tflite {

/// The file identifier at bytes 4..7 of a .tflite file.
constexpr char kFileIdentifier[] = "TFL3";
constexpr unsigned kFileIdentifierOffset = 4;

namespace model {
constexpr unsigned kVersion = 0, kOperatorCodes = 1, kSubgraphs = 2,
                   kBuffers = 4;
} // namespace model
namespace operator_code {
constexpr unsigned kDeprecatedBuiltinCode = 0, kBuiltinCode = 3;
} // namespace operator_code
namespace subgraph {
constexpr unsigned kTensors = 0, kInputs = 1, kOutputs = 2, kOperators = 3;
} // namespace subgraph
namespace tensor {
constexpr unsigned kShape = 0, kType = 1, kBuffer = 2, kName = 3,
                   kQuantization = 4;
} // namespace tensor
namespace quantization {
constexpr unsigned kScale = 2, kZeroPoint = 3, kQuantizedDimension = 6;
} // namespace quantization
namespace buffer {
constexpr unsigned kData = 0, kOffset = 1;
} // namespace buffer
namespace op {
constexpr unsigned kOpcodeIndex = 0, kInputs = 1, kOutputs = 2,
                   kBuiltinOptions = 4;
} // namespace op
namespace conv_options {
constexpr unsigned kPadding = 0, kStrideW = 1, kStrideH = 2, kActivation = 3,
                   kDilationW = 4, kDilationH = 5;
} // namespace conv_options
namespace depthwise_options {
constexpr unsigned kPadding = 0, kStrideW = 1, kStrideH = 2,
                   kDepthMultiplier = 3, kActivation = 4, kDilationW = 5,
                   kDilationH = 6;
} // namespace depthwise_options
namespace pool_options {
constexpr unsigned kPadding = 0, kStrideW = 1, kStrideH = 2, kFilterW = 3,
                   kFilterH = 4, kActivation = 5;
} // namespace pool_options
namespace fully_connected_options {
constexpr unsigned kActivation = 0, kWeightsFormat = 1;
} // namespace fully_connected_options
namespace add_options {
constexpr unsigned kActivation = 0;
} // namespace add_options
namespace leaky_relu_options {
constexpr unsigned kAlpha = 0;
} // namespace leaky_relu_options
namespace reducer_options {
constexpr unsigned kKeepDims = 0;
} // namespace reducer_options

namespace concatenation_options {
constexpr unsigned kAxis = 0, kActivation = 1;
} // namespace concatenation_options

namespace strided_slice_options {
constexpr unsigned kBeginMask = 0, kEndMask = 1, kEllipsisMask = 2,
                   kNewAxisMask = 3, kShrinkAxisMask = 4, kOffset = 5;
} // namespace strided_slice_options

namespace resize_nearest_options {
constexpr unsigned kAlignCorners = 0, kHalfPixelCenters = 1;
} // namespace resize_nearest_options

namespace softmax_options {
constexpr unsigned kBeta = 0;
} // namespace softmax_options

enum class TensorType : int8_t { Float32 = 0, Int32 = 2, UInt8 = 3, Int8 = 9 };
enum class PaddingKind : int8_t { Same = 0, Valid = 1 };
enum class Activation : int8_t {
  None = 0,
  Relu = 1,
  ReluN1To1 = 2,
  Relu6 = 3,
};

enum class Builtin : int32_t {
#define VMCU_TFLITE_BUILTIN(Enumerator, Code, Name) Enumerator = Code,
#include "Builtins.def"
};

/// The name of a builtin operator code, for diagnostics.
const char *builtinName(int32_t code);

} // namespace mlir::vmcu::tflite

#endif // VMCU_LIB_TARGET_TFLITE_SCHEMA_H
