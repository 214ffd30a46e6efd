//===- Importer.h - The TFLite importer's state and steps -------*- C++ -*-===//
//
// Private to lib/Target/TFLite. The Importer walks the first subgraph's
// operators in order and builds each with TosaBuilder. Its steps are
// defined by concern: TFLiteImporter.cpp (tensors, quantization, liveness,
// the model's edges, the walk and its dispatch), ImportLinear.cpp
// (convolutions, FULLY_CONNECTED, pooling), ImportElementwise.cpp (ADD,
// SUB, MUL, activations, SOFTMAX) and ImportShapeOps.cpp (reshapes, PAD,
// MEAN, TRANSPOSE, RESIZE, CONCATENATION, slices).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TARGET_TFLITE_IMPORTER_H
#define VMCU_LIB_TARGET_TFLITE_IMPORTER_H

#include "FlatBuffer.h"
#include "Schema.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Target/TFLite/TFLiteImporter.h"
#include "vmcu/Utils/Int8Activations.h"
#include "vmcu/Utils/TosaBuilder.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace mlir::vmcu::tflite {

using flatbuffer::Table;
using flatbuffer::Vector;

/// Upper bound of RELU6 and the bounds of RELU_N1_TO_1, in real units.
inline constexpr double kRelu6Max = 6.0;
inline constexpr double kReluN1To1Bound = 1.0;
/// The largest weight tensor accepted (bytes): far above any MCU's flash.
inline constexpr uint64_t kMaxConstantBytes = uint64_t(1) << 28;
/// The most elements an activation may have (2^28, far above any MCU's
/// RAM); it also keeps every element count and index in int64.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 28;
/// No upper bound on an operator's operand count (inputActivation).
inline constexpr size_t kAnyOperandCount = std::numeric_limits<size_t>::max();

struct TensorInfo {
  SmallVector<int64_t> shape;
  int8_t type = 0;
  uint32_t buffer = 0;
  std::string name;
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
};

/// An int8 activation: its value, quantisation and, after a folded PAD,
/// the padding still to apply (top, bottom, left, right).
struct QuantValue {
  Value value;
  double scale = 0;
  int32_t zp = 0;
  int64_t pad[4] = {0, 0, 0, 0};

  RankedTensorType getType() const {
    return cast<RankedTensorType>(value.getType());
  }
  bool isPadded() const { return pad[0] || pad[1] || pad[2] || pad[3]; }
};

/// The element count of `shape` if every dimension is positive and the
/// count is at most `limit`; nullopt otherwise (no overflow on the way).
inline std::optional<int64_t> boundedElements(llvm::ArrayRef<int64_t> shape,
                                              int64_t limit) {
  int64_t count = 1;
  for (int64_t d : shape)
    if (d <= 0 || llvm::MulOverflow(count, d, count) || count > limit)
      return std::nullopt;
  return count;
}

/// An operator's code and operand tensors, read once.
struct OperatorRefs {
  int32_t code = 0;
  SmallVector<int32_t> inputs, outputs;
};

/// Field `field` of the operator's builtin options: `fallback` when it has
/// no options table (TFLite's defaults), empty when the field is malformed.
template <typename T>
std::optional<T> optionScalar(Table op, unsigned field, T fallback) {
  std::optional<Table> options = op.table(op::kBuiltinOptions);
  return options ? options->scalar<T>(field, fallback)
                 : std::optional<T>(fallback);
}

/// Imports one model: run() reads the flatbuffer and builds `@main` from
/// the operators the outputs depend on, one import* step per operator.
class Importer {
public:
  Importer(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef fileName,
           MLIRContext *context, const TFLiteImportOptions &options)
      : bytes(bytes), buffer(bytes), context(context), builder(context),
        fileLoc(FileLineColLoc::get(context, fileName, 0, 0)),
        tosa(builder, fileLoc), options(options) {}

  OwningOpRef<ModuleOp> run();

private:
  InFlightDiagnostic malformed(const Twine &what) {
    return emitError(fileLoc) << "malformed .tflite file: " << what;
  }
  /// An error at the current operator.
  InFlightDiagnostic opError() {
    return emitError(tosa.getLoc())
           << "operator #" << opIndex << " (" << builtinName(opCode) << " '"
           << outputName << "'): ";
  }

  /// The int8 tensor the body starts from: `input` itself, or the output
  /// of the one QUANTIZE that reads a float32 `input` (recorded in
  /// `skipped`: the header quantizes instead).
  FailureOr<int32_t> bodyInput(int32_t input);
  /// The int8 tensor the body ends at: `output`, or the input of the
  /// DEQUANTIZE that writes a float32 `output`.
  FailureOr<int32_t> bodyOutput(int32_t output);
  /// `vmcu.input_edge` / `vmcu.output_edge` of computed tensor `index`.
  EdgeAttr edgeOf(int32_t index, bool isFloat);

  LogicalResult readTensors(Table subgraph);
  LogicalResult readOperatorCodes(Table model);
  /// The constant bytes of tensor `index`, empty when it has no data.
  FailureOr<llvm::ArrayRef<uint8_t>> constantData(int32_t index);
  /// The `count` little-endian values of constant tensor `index`, which
  /// must have TFLite type `type`.
  template <typename T>
  FailureOr<SmallVector<T>> constant(int32_t index, int64_t count,
                                     tflite::TensorType type,
                                     StringRef typeName);
  FailureOr<SmallVector<int8_t>> constantI8(int32_t index, int64_t count);
  FailureOr<SmallVector<int32_t>> constantI32(int32_t index, int64_t count);
  /// The int32 bias of a layer with operands `in` (input, weights, bias),
  /// zeros when the optional bias is omitted.
  FailureOr<SmallVector<int32_t>> optionalBias(ArrayRef<int32_t> in,
                                               int64_t channels);
  /// The activation in tensor `index`, which must have been produced.
  FailureOr<QuantValue> activation(int32_t index);
  /// The activation an operator reads as its first operand, once `in` is
  /// checked to hold `min` to `max` operands ("expects <what>" if not).
  FailureOr<QuantValue> inputActivation(ArrayRef<int32_t> in, size_t min,
                                        size_t max, const Twine &what);
  /// The quantisation of an int8 activation tensor.
  LogicalResult activationQuant(int32_t index, double &scale, int32_t &zp);
  LogicalResult checkShape(int32_t index, llvm::ArrayRef<int64_t> shape);
  FailureOr<RankedTensorType> activationType(int32_t index);

  /// Reads every operator's code and operands into `opRefs`, checking that
  /// they name existing codes and tensors.
  LogicalResult readOperators();
  /// Marks the operators `output` depends on; the others are not imported.
  void markLiveOperators(ArrayRef<int32_t> outputs);
  /// The body's input and output tensors (past a float edge's QUANTIZE /
  /// DEQUANTIZE) and whether those edges are float.
  struct ModelEdges {
    SmallVector<int32_t> inputs, outputs;
    bool single = false, floatInput = false, floatOutput = false;
  };
  FailureOr<ModelEdges> readEdges(const Vector &inputs, const Vector &outputs);
  /// `@main` over the live operators, with the edges' attributes.
  OwningOpRef<ModuleOp> importBody(const ModelEdges &edges);
  /// Returns the model outputs from `@main`.
  LogicalResult returnOutputs(ArrayRef<int32_t> outputs);
  /// The model's input (or output) tensors, or the --tflite-output one.
  FailureOr<SmallVector<int32_t>> edgeTensors(const Vector &list,
                                              StringRef what);
  LogicalResult importOperator(Table op, const OperatorRefs &refs);
  LogicalResult importConv(Table op, ArrayRef<int32_t> in, int32_t out,
                           bool depthwise);
  LogicalResult importFullyConnected(Table op, ArrayRef<int32_t> in,
                                     int32_t out);
  LogicalResult importAdd(Table op, ArrayRef<int32_t> in, int32_t out,
                          bool subtract);
  LogicalResult importMul(Table op, ArrayRef<int32_t> in, int32_t out);
  /// The two operands of a binary operator at the output's rank (TFLite
  /// broadcasts right-aligned), constants as tosa.const, and the output
  /// type they broadcast to.
  struct BinaryOperands {
    QuantValue lhs, rhs;
    RankedTensorType outType;
  };
  FailureOr<BinaryOperands> binaryOperands(ArrayRef<int32_t> in);
  /// Operand `t` of a binary operator as a value of rank `rank`.
  FailureOr<QuantValue> binaryOperand(int32_t t, size_t rank);
  /// A binary operator's fused activation and output quantization, the
  /// output's shape checked against `shape`.
  struct BinaryOutput {
    int8_t activation;
    double scale;
    int32_t zp;
  };
  FailureOr<BinaryOutput> binaryOutput(Table op, int32_t out,
                                       ArrayRef<int64_t> shape);
  /// MUL of an NHWC activation by a per-channel constant ([C], [1, 1, 1, C],
  /// ...) as a 1x1 depthwise with weights c - zero point. Failure without a
  /// diagnostic when the operands are not of that form.
  FailureOr<bool> importChannelMul(Table op, ArrayRef<int32_t> in, int32_t out);
  /// True if operand `t` names a tensor no operator computes (a constant).
  bool isConstantOperand(int32_t t) const {
    return t >= 0 && t < static_cast<int32_t>(tensors.size()) && !values[t];
  }
  FailureOr<bool> importChannelMulOf(Table op, const QuantValue &x,
                                     int32_t cIndex, int32_t out);
  /// ADD, SUB or MUL with a one-element constant operand: a table of the
  /// other operand. Failure without a diagnostic when no operand is one.
  FailureOr<bool> importWithScalar(Table op, ArrayRef<int32_t> in, int32_t out,
                                   Builtin kind);
  /// AVERAGE_POOL_2D, or MAX_POOL_2D with `max`.
  LogicalResult importPool(Table op, ArrayRef<int32_t> in, int32_t out,
                           bool max);
  LogicalResult importReshape(ArrayRef<int32_t> in, int32_t out);
  LogicalResult importPad(ArrayRef<int32_t> in, int32_t out);
  LogicalResult importSoftmax(Table op, ArrayRef<int32_t> in, int32_t out);
  LogicalResult importConcatenation(Table op, ArrayRef<int32_t> in,
                                    int32_t out);
  LogicalResult importTranspose(ArrayRef<int32_t> in, int32_t out);
  LogicalResult importResizeNearest(Table op, ArrayRef<int32_t> in,
                                    int32_t out);
  /// SLICE (begin, size) or STRIDED_SLICE (begin, end, strides and masks,
  /// one of each per input dimension) as TFLite Micro resolves them: a box
  /// of the input, reshaped to the output tensor (shrunk axes dropped).
  LogicalResult importSlice(Table op, ArrayRef<int32_t> in, int32_t out,
                            bool strided);
  /// A slice's box: first element, extent and stride per input dimension,
  /// and its shape without STRIDED_SLICE's shrunk axes.
  struct SliceBox {
    SmallVector<int64_t> start, size, stride, kept;
  };
  FailureOr<SliceBox> sliceBox(Table op, RankedTensorType inType,
                               ArrayRef<int32_t> begin,
                               ArrayRef<int32_t> second,
                               ArrayRef<int32_t> strides, bool strided);
  /// The first element and the count of STRIDED_SLICE's axis `d` of
  /// `extent` elements (TFLM's StridedSliceStartForAxis/EndForAxis for a
  /// positive stride).
  FailureOr<std::pair<int64_t, int64_t>> stridedAxis(Table op, int64_t d,
                                                     int64_t extent,
                                                     int32_t begin, int32_t end,
                                                     int32_t stride);
  LogicalResult importMean(Table op, ArrayRef<int32_t> in, int32_t out);
  /// MEAN's reduced axes: those of constant tensor `index`, resolved as
  /// TFLM's ResolveAxis does (negative from the end, duplicates dropped).
  FailureOr<SmallVector<int64_t>> meanAxes(int32_t index, int64_t rank);
  /// RELU, RELU6, LEAKY_RELU and int8 QUANTIZE: a tosa.table whose 256
  /// entries are TFLite Micro's integer arithmetic on each int8 input.
  LogicalResult importElementwise(Table op, ArrayRef<int32_t> in, int32_t out,
                                  Builtin kind);
  /// The table of TFLM's int8 LOGISTIC, TANH or HARD_SWISH for these
  /// quantisations.
  FailureOr<fixedpoint::Int8Table>
  sigmoidOrHardSwish(Builtin kind, double inScale, int32_t inZp,
                     double outScale, int32_t outZp);

  /// Requantisation multipliers for the accumulator scales `inScale *
  /// weightScale[c] / outScale`.
  FailureOr<SmallVector<Multiplier>>
  channelMultipliers(double inScale, llvm::ArrayRef<float> weightScales,
                     int64_t channels, double outScale);
  /// The fused activation as a clamp on int8 `y`.
  FailureOr<Value> applyActivation(Value y, int8_t activation, double scale,
                                   int32_t zp);
  /// The int8 range [lo, hi] the fused activation clamps to.
  FailureOr<std::pair<int64_t, int64_t>>
  activationRange(int8_t activation, double scale, int32_t zp);
  /// The exact window of one dimension of `x` for `padding` plus the folded
  /// pads `before`/`after`.
  FailureOr<DimPads> window(llvm::StringRef dim, int64_t in, int64_t kernel,
                            int64_t stride, PaddingKind padding, int64_t before,
                            int64_t after);
  /// Applies the fused activation to `y` and records it as tensor `out`.
  LogicalResult defineActivated(int32_t out, Value y, int8_t activation,
                                double scale, int32_t zp) {
    FailureOr<Value> result = applyActivation(y, activation, scale, zp);
    if (failed(result))
      return failure();
    define(out, QuantValue{*result, scale, zp});
    return success();
  }
  /// Records `value` as the result of the current operator.
  void define(int32_t index, QuantValue act) { values[index] = act; }

  llvm::ArrayRef<uint8_t> bytes;
  flatbuffer::Buffer buffer;
  MLIRContext *context;
  OpBuilder builder;
  Location fileLoc;
  TosaBuilder tosa;

  TFLiteImportOptions options;
  SmallVector<bool> live;
  /// Operators at float edges that the body leaves to the caller.
  SmallVector<uint32_t> skipped;
  SmallVector<OperatorRefs> opRefs;
  /// For each tensor, the (operator, operand) pairs that read it.
  SmallVector<SmallVector<std::pair<uint32_t, uint32_t>, 1>> readers;
  SmallVector<int32_t> opCodes;
  SmallVector<TensorInfo> tensors;
  SmallVector<std::optional<QuantValue>> values;
  std::optional<Vector> buffers;
  std::optional<Vector> operators;
  int64_t opIndex = 0;
  int32_t opCode = 0;
  llvm::StringRef outputName;
};

} // namespace mlir::vmcu::tflite

#endif // VMCU_LIB_TARGET_TFLITE_IMPORTER_H
