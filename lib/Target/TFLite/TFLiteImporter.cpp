//===- TFLiteImporter.cpp - .tflite to int8 TOSA 1.0 ----------------------===//
//
// Walks the first subgraph's operators in order and builds each with
// TosaBuilder, reproducing TFLite's integer arithmetic: per-channel
// requantisation (QuantizeMultiplier, DOUBLE_ROUND), the add's 2^20
// headroom, fused activations as clamps. A PAD is folded into the
// convolution it feeds; a strided window's unread tail becomes a slice.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Target/TFLite/TFLiteImporter.h"

#include "FlatBuffer.h"
#include "Schema.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Utils/FixedPoint.h"
#include "vmcu/Utils/Int8Activations.h"
#include "vmcu/Utils/TosaBuilder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tflite;
using flatbuffer::Table;
using flatbuffer::Vector;

namespace {
/// Upper bound of RELU6 and the bounds of RELU_N1_TO_1, in real units.
constexpr double kRelu6Max = 6.0;
/// The int8 output quantisation TFLite Micro's SOFTMAX requires.
constexpr int32_t kSoftmaxOutputZeroPoint = -128;
constexpr float kSoftmaxOutputScale = 1.0f / 256;
constexpr double kReluN1To1Bound = 1.0;
/// The largest weight tensor accepted (bytes): far above any MCU's flash.
constexpr uint64_t kMaxConstantBytes = uint64_t(1) << 28;
/// The most elements an activation may have (2^28, far above any MCU's
/// RAM); it also keeps every element count and index in int64.
constexpr int64_t kMaxTensorElements = int64_t(1) << 28;
/// Operand references (inputs + outputs over all operators) accepted. Real
/// models have a few per operator; the cap keeps a malformed file whose
/// operators share one huge operand vector from costing quadratic time.
constexpr uint64_t kMaxOperandRefs = uint64_t(1) << 22;

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
std::optional<int64_t> boundedElements(llvm::ArrayRef<int64_t> shape,
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
  FailureOr<bool> importChannelMul(Table op, ArrayRef<int32_t> in,
                                   int32_t out);
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
  FailureOr<std::pair<int64_t, int64_t>>
  stridedAxis(Table op, int64_t d, int64_t extent, int32_t begin, int32_t end,
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
  FailureOr<fixedpoint::Int8Table> sigmoidOrHardSwish(Builtin kind,
                                                      double inScale,
                                                      int32_t inZp,
                                                      double outScale,
                                                      int32_t outZp);

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
} // namespace

const char *mlir::vmcu::tflite::builtinName(int32_t code) {
  switch (code) {
#define VMCU_TFLITE_BUILTIN(Enumerator, Code, Name)                            \
  case Code:                                                                   \
    return Name;
#include "Builtins.def"
  default:
    return "builtin operator";
  }
}

std::string mlir::vmcu::supportedTFLiteOperators() {
  SmallVector<StringRef> names = {
#define VMCU_TFLITE_BUILTIN(Enumerator, Code, Name) Name,
#include "Builtins.def"
  };
  llvm::sort(names);
  return llvm::join(names, ", ");
}

bool mlir::vmcu::isTFLiteFile(llvm::ArrayRef<uint8_t> bytes) {
  constexpr size_t kLength = sizeof(kFileIdentifier) - 1;
  return bytes.size() >= kFileIdentifierOffset + kLength &&
         std::memcmp(bytes.data() + kFileIdentifierOffset, kFileIdentifier,
                     kLength) == 0;
}

LogicalResult Importer::readOperatorCodes(Table model) {
  std::optional<Vector> codes = model.vector(model::kOperatorCodes);
  if (!codes)
    return malformed("bad operator_codes");
  for (uint32_t i = 0; i < codes->size(); ++i) {
    std::optional<Table> code = codes->table(i);
    if (!code)
      return malformed("bad operator code ") << i;
    std::optional<int8_t> deprecated =
        code->scalar<int8_t>(operator_code::kDeprecatedBuiltinCode, 0);
    std::optional<int32_t> builtin =
        code->scalar<int32_t>(operator_code::kBuiltinCode, 0);
    if (!deprecated || !builtin)
      return malformed("bad operator code ") << i;
    // Old files only set the deprecated byte; new ones set both.
    opCodes.push_back(std::max<int32_t>(*deprecated, *builtin));
  }
  return success();
}

LogicalResult Importer::readTensors(Table subgraph) {
  std::optional<Vector> list = subgraph.vector(subgraph::kTensors);
  if (!list)
    return malformed("bad tensor list");
  for (uint32_t i = 0; i < list->size(); ++i) {
    std::optional<Table> t = list->table(i);
    if (!t)
      return malformed("bad tensor ") << i;
    TensorInfo info;
    std::optional<Vector> shape = t->vector(tensor::kShape);
    std::optional<SmallVector<int32_t>> dims;
    if (shape)
      dims = shape->scalars<int32_t>();
    std::optional<int8_t> type = t->scalar<int8_t>(tensor::kType, 0);
    std::optional<uint32_t> bufferIndex =
        t->scalar<uint32_t>(tensor::kBuffer, 0);
    std::optional<llvm::StringRef> name = t->string(tensor::kName);
    if (!dims || !type || !bufferIndex || !name)
      return malformed("bad tensor ") << i;
    info.shape.assign(dims->begin(), dims->end());
    info.type = *type;
    info.buffer = *bufferIndex;
    info.name = name->str();
    if (t->has(tensor::kQuantization)) {
      std::optional<Table> q = t->table(tensor::kQuantization);
      std::optional<Vector> scales, zps;
      if (q) {
        scales = q->vector(quantization::kScale);
        zps = q->vector(quantization::kZeroPoint);
      }
      std::optional<SmallVector<float>> s;
      std::optional<SmallVector<int64_t>> z;
      if (scales && zps) {
        s = scales->scalars<float>();
        z = zps->scalars<int64_t>();
      }
      if (!s || !z)
        return malformed("bad quantization of tensor '") << info.name << "'";
      info.scales = std::move(*s);
      info.zeroPoints = std::move(*z);
    }
    tensors.push_back(std::move(info));
  }
  values.resize(tensors.size());
  return success();
}

FailureOr<llvm::ArrayRef<uint8_t>> Importer::constantData(int32_t index) {
  const TensorInfo &t = tensors[index];
  std::optional<Table> buf =
      buffers ? buffers->table(t.buffer) : std::optional<Table>();
  if (!buf)
    return opError() << "tensor '" << t.name << "' names buffer " << t.buffer
                     << ", which does not exist";
  std::optional<uint64_t> offset = buf->scalar<uint64_t>(buffer::kOffset, 0);
  if (!offset)
    return opError() << "bad buffer " << t.buffer;
  if (*offset > 1)
    return opError() << "tensor '" << t.name
                     << "' keeps its data outside the flatbuffer; vmcu reads "
                        "only buffers stored inline";
  std::optional<Vector> data = buf->vector(buffer::kData);
  std::optional<llvm::ArrayRef<uint8_t>> bytes;
  if (data)
    bytes = data->bytes<uint8_t>();
  if (!bytes)
    return opError() << "buffer " << t.buffer << " of tensor '" << t.name
                     << "' is truncated";
  return *bytes;
}

template <typename T>
FailureOr<SmallVector<T>> Importer::constant(int32_t index, int64_t count,
                                             tflite::TensorType type,
                                             StringRef typeName) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "omits a required " << typeName << " constant";
  const TensorInfo &t = tensors[index];
  if (t.type != static_cast<int8_t>(type))
    return opError() << "tensor '" << t.name << "' must be " << typeName
                     << " (TFLite type " << int(t.type) << ")";
  FailureOr<llvm::ArrayRef<uint8_t>> data = constantData(index);
  if (failed(data))
    return failure();
  uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
  if (bytes > kMaxConstantBytes || data->size() != bytes)
    return opError() << "tensor '" << t.name << "' must be a constant of "
                     << count << " " << typeName << " values, it has "
                     << data->size() << " bytes";
  SmallVector<T> values(count);
  std::memcpy(values.data(), data->data(), bytes);
  return values;
}

FailureOr<SmallVector<int8_t>> Importer::constantI8(int32_t index,
                                                    int64_t count) {
  return constant<int8_t>(index, count, tflite::TensorType::Int8, "int8");
}

FailureOr<SmallVector<int32_t>> Importer::constantI32(int32_t index,
                                                      int64_t count) {
  return constant<int32_t>(index, count, tflite::TensorType::Int32, "int32");
}

FailureOr<SmallVector<int32_t>> Importer::optionalBias(ArrayRef<int32_t> in,
                                                       int64_t channels) {
  if (in.size() > 2 && in[2] >= 0)
    return constantI32(in[2], channels);
  return SmallVector<int32_t>(channels, 0);
}

LogicalResult Importer::activationQuant(int32_t index, double &scale,
                                        int32_t &zp) {
  const TensorInfo &t = tensors[index];
  if (t.type != static_cast<int8_t>(tflite::TensorType::Int8))
    return opError() << "tensor '" << t.name << "' is not int8 (TFLite type "
                     << int(t.type)
                     << "); vmcu compiles fully int8-quantised models";
  if (t.scales.size() != 1 || t.zeroPoints.size() != 1 ||
      !(t.scales[0] > 0.0f) || !std::isfinite(t.scales[0]))
    return opError() << "activation '" << t.name
                     << "' needs one positive scale and one zero point";
  if (t.zeroPoints[0] < kInt8Min || t.zeroPoints[0] > kInt8Max)
    return opError() << "activation '" << t.name << "' has zero point "
                     << t.zeroPoints[0] << ", outside int8";
  scale = t.scales[0];
  zp = static_cast<int32_t>(t.zeroPoints[0]);
  return success();
}

FailureOr<RankedTensorType> Importer::activationType(int32_t index) {
  const TensorInfo &t = tensors[index];
  if (t.shape.empty() || !boundedElements(t.shape, kMaxTensorElements))
    return opError() << "tensor '" << t.name
                     << "' needs a static, positive shape of at most "
                     << kMaxTensorElements << " elements";
  return RankedTensorType::get(t.shape, builder.getI8Type());
}

FailureOr<QuantValue> Importer::activation(int32_t index) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "operand tensor " << index << " does not exist";
  if (!values[index])
    return opError() << "operand '" << tensors[index].name
                     << "' is a constant or not yet computed; vmcu expects "
                        "activations here";
  return *values[index];
}

LogicalResult Importer::checkShape(int32_t index,
                                   llvm::ArrayRef<int64_t> shape) {
  if (llvm::ArrayRef<int64_t>(tensors[index].shape) == shape)
    return success();
  auto diag = opError() << "output '" << tensors[index].name
                        << "' is declared with shape [";
  llvm::interleaveComma(tensors[index].shape, diag);
  diag << "] but the operator computes [";
  llvm::interleaveComma(shape, diag);
  return diag << "]";
}

FailureOr<SmallVector<Multiplier>>
Importer::channelMultipliers(double inScale, llvm::ArrayRef<float> weightScales,
                             int64_t channels, double outScale) {
  if (weightScales.size() != 1 &&
      weightScales.size() != static_cast<size_t>(channels))
    return opError() << "weights have " << weightScales.size() << " scales for "
                     << channels << " channels";
  SmallVector<Multiplier> result;
  for (int64_t c = 0; c < channels; ++c) {
    double w = weightScales.size() == 1 ? weightScales[0] : weightScales[c];
    double scale = inScale * w / outScale;
    llvm::Expected<Multiplier> m = quantizeScale(scale);
    if (!m && scale < 1.0) {
      // Below 2^-31 TFLite's QuantizeMultiplier flushes to 0 as well.
      llvm::consumeError(m.takeError());
      result.push_back(Multiplier{0, 31});
      continue;
    }
    if (!m)
      return opError() << "channel " << c << ": "
                       << llvm::toString(m.takeError());
    result.push_back(*m);
  }
  return result;
}

FailureOr<Value> Importer::applyActivation(Value y, int8_t act, double scale,
                                           int32_t zp) {
  FailureOr<std::pair<int64_t, int64_t>> range =
      activationRange(act, scale, zp);
  if (failed(range))
    return failure();
  auto [lo, hi] = *range;
  if (lo == kInt8Min && hi == kInt8Max)
    return y;
  return tosa.clamp(y, lo, hi);
}

FailureOr<std::pair<int64_t, int64_t>>
Importer::activationRange(int8_t act, double scale, int32_t zp) {
  // TFLite's CalculateActivationRangeQuantized divides in float.
  auto quantize = [&](double real) {
    return zp + static_cast<int64_t>(std::round(static_cast<float>(real) /
                                                static_cast<float>(scale)));
  };
  int64_t lo = kInt8Min, hi = kInt8Max;
  // The byte comes from the file: switch on it, not on the enum.
  using tflite::Activation;
  switch (act) {
  case static_cast<int8_t>(Activation::None):
    break;
  case static_cast<int8_t>(Activation::Relu):
    lo = std::max(lo, quantize(0.0));
    break;
  case static_cast<int8_t>(Activation::Relu6):
    lo = std::max(lo, quantize(0.0));
    hi = std::min(hi, quantize(kRelu6Max));
    break;
  case static_cast<int8_t>(Activation::ReluN1To1):
    lo = std::max(lo, quantize(-kReluN1To1Bound));
    hi = std::min(hi, quantize(kReluN1To1Bound));
    break;
  default:
    return opError() << "fused activation " << int(act)
                     << " is not supported (NONE, RELU, RELU_N1_TO_1, RELU6)";
  }
  if (lo > hi)
    return opError() << "the fused activation's range is empty at scale "
                     << scale << ", zero point " << zp;
  return std::make_pair(lo, hi);
}

FailureOr<DimPads> Importer::window(llvm::StringRef dim, int64_t in,
                                    int64_t kernel, int64_t stride,
                                    PaddingKind padding, int64_t before,
                                    int64_t after) {
  if (padding == PaddingKind::Same) {
    // SAME pads the already padded extent.
    auto [sameBefore, sameAfter] =
        samePads(in + before + after, kernel, stride);
    before += sameBefore;
    after += sameAfter;
  } else if (padding != PaddingKind::Valid) {
    return opError() << "unknown padding " << int(padding);
  }
  llvm::Expected<DimPads> pads = computeWindow(builtinName(opCode), dim, in,
                                               kernel, stride, before, after);
  if (!pads)
    return opError() << llvm::toString(pads.takeError());
  return *pads;
}

/// Field `field` of the operator's builtin options: `fallback` when it has
/// no options table (TFLite's defaults), empty when the field is malformed.
template <typename T>
static std::optional<T> optionScalar(Table op, unsigned field, T fallback) {
  std::optional<Table> options = op.table(op::kBuiltinOptions);
  return options ? options->scalar<T>(field, fallback)
                 : std::optional<T>(fallback);
}

/// A grouped OHWI filter [cout, taps, depth] as a dense [cout, taps, cin]
/// one, zero outside each output channel's group: the dense convolution is
/// the grouped one exactly (it costs the zeros' MACs).
static SmallVector<int8_t> ungroupWeights(ArrayRef<int8_t> grouped,
                                          int64_t cout, int64_t taps,
                                          int64_t depth, int64_t cin) {
  int64_t perGroup = cout / (cin / depth);
  SmallVector<int8_t> dense(cout * taps * cin, 0);
  for (int64_t o = 0; o < cout; ++o) {
    int64_t first = o / perGroup * depth;
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t i = 0; i < depth; ++i)
        dense[(o * taps + t) * cin + first + i] =
            grouped[(o * taps + t) * depth + i];
  }
  return dense;
}

LogicalResult Importer::importConv(Table op, ArrayRef<int32_t> in, int32_t out,
                                   bool depthwise) {
  if (in.size() < 2)
    return opError() << "expects input, filter and optional bias";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> xShape = x->getType().getShape();
  if (xShape.size() != 4)
    return opError() << "input must be NHWC";
  if (in[1] < 0 || in[1] >= static_cast<int32_t>(tensors.size()))
    return opError() << "filter tensor " << in[1] << " does not exist";
  const TensorInfo &filter = tensors[in[1]];
  if (filter.shape.size() != 4 ||
      !boundedElements(filter.shape, kMaxConstantBytes))
    return opError() << "filter '" << filter.name
                     << "' must have rank 4 and a positive shape";
  int64_t kh = filter.shape[1], kw = filter.shape[2];
  int64_t cin = xShape[3];
  int64_t cout = depthwise ? filter.shape[3] : filter.shape[0];
  // A CONV_2D filter of depth cin / g is a grouped convolution (TFLM's
  // ConvPerChannel): output channel o reads group o / (cout / g).
  int64_t filterDepth = depthwise ? cin : filter.shape[3];
  bool grouped = !depthwise && filterDepth > 0 && filterDepth != cin &&
                 cin % filterDepth == 0 && cout % (cin / filterDepth) == 0;
  if (depthwise ? filter.shape[0] != 1 : filterDepth != cin && !grouped)
    return opError() << "filter '" << filter.name
                     << "' does not match the input's " << cin << " channels";
  if (depthwise && cout % cin != 0)
    return opError() << "depthwise output channels " << cout
                     << " are not a multiple of the input's " << cin;
  if (llvm::any_of(filter.zeroPoints, [](int64_t z) { return z != 0; }))
    return opError() << "filter '" << filter.name
                     << "' has a non-zero zero point; TFLite int8 weights "
                        "are symmetric";

  std::optional<Table> options = op.table(op::kBuiltinOptions);
  if (!options)
    return opError() << "has no options";
  unsigned kPad =
      depthwise ? depthwise_options::kPadding : conv_options::kPadding;
  unsigned kSw =
      depthwise ? depthwise_options::kStrideW : conv_options::kStrideW;
  unsigned kSh =
      depthwise ? depthwise_options::kStrideH : conv_options::kStrideH;
  unsigned kAct =
      depthwise ? depthwise_options::kActivation : conv_options::kActivation;
  unsigned kDw =
      depthwise ? depthwise_options::kDilationW : conv_options::kDilationW;
  unsigned kDh =
      depthwise ? depthwise_options::kDilationH : conv_options::kDilationH;
  std::optional<int8_t> padding = options->scalar<int8_t>(kPad, 0);
  std::optional<int32_t> sw = options->scalar<int32_t>(kSw, 0);
  std::optional<int32_t> sh = options->scalar<int32_t>(kSh, 0);
  std::optional<int8_t> act = options->scalar<int8_t>(kAct, 0);
  std::optional<int32_t> dw = options->scalar<int32_t>(kDw, 1);
  std::optional<int32_t> dh = options->scalar<int32_t>(kDh, 1);
  if (!padding || !sw || !sh || !act || !dw || !dh)
    return opError() << "has malformed options";
  if (*sw < 1 || *sh < 1)
    return opError() << "strides must be positive, got " << *sh << "x" << *sw;
  if (*dw < 1 || *dh < 1)
    return opError() << "dilation must be positive, got " << *dh << "x" << *dw;

  // A dilated window spans (k - 1) * d + 1 input rows / columns (TFLite's
  // ComputePaddingHeightWidth).
  FailureOr<DimPads> h = window("height", xShape[1], (kh - 1) * *dh + 1, *sh,
                                static_cast<PaddingKind>(*padding), x->pad[0],
                                x->pad[1]);
  if (failed(h))
    return failure();
  FailureOr<DimPads> w = window("width", xShape[2], (kw - 1) * *dw + 1, *sw,
                                static_cast<PaddingKind>(*padding), x->pad[2],
                                x->pad[3]);
  if (failed(w))
    return failure();

  FailureOr<SmallVector<int8_t>> weights =
      constantI8(in[1], kh * kw * filterDepth * (depthwise ? cout / cin : cout));
  if (failed(weights))
    return failure();
  if (grouped)
    *weights = ungroupWeights(*weights, cout, kh * kw, filterDepth, cin);
  FailureOr<SmallVector<int32_t>> bias = optionalBias(in, cout);
  if (failed(bias))
    return failure();
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, {xShape[0], h->out, w->out, cout})))
    return failure();
  FailureOr<SmallVector<Multiplier>> multipliers =
      channelMultipliers(x->scale, filter.scales, cout, outScale);
  if (failed(multipliers))
    return failure();

  Value input = tosa.sliceTail(x->value, h->trim, w->trim);
  // TFLite's depthwise filter [1, kh, kw, c * m] has TOSA's [kh, kw, c, m]
  // memory order.
  Value acc =
      depthwise ? tosa.depthwiseConv2d(input, x->zp, {kh, kw, cin, cout / cin},
                                       *weights, *bias, *h, *w, *sh, *sw,
                                       *dh, *dw)
                : tosa.conv2d(input, x->zp, {cout, kh, kw, cin}, *weights,
                              *bias, *h, *w, *sh, *sw, *dh, *dw);
  auto outType =
      cast<RankedTensorType>(acc.getType()).clone(builder.getI8Type());
  Value y = tosa.rescale(acc, outType, *multipliers, 0, outZp,
                         /*perChannel=*/true);
  return defineActivated(out, y, *act, outScale, outZp);
}

LogicalResult Importer::importFullyConnected(Table op, ArrayRef<int32_t> in,
                                             int32_t out) {
  if (in.size() < 2)
    return opError() << "expects input, weights and optional bias";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  if (in[1] < 0 || in[1] >= static_cast<int32_t>(tensors.size()))
    return opError() << "weights tensor " << in[1] << " does not exist";
  const TensorInfo &weightsInfo = tensors[in[1]];
  if (weightsInfo.shape.size() != 2 ||
      !boundedElements(weightsInfo.shape, kMaxConstantBytes))
    return opError() << "weights '" << weightsInfo.name
                     << "' must have rank 2 and a positive shape";
  int64_t n = weightsInfo.shape[0], k = weightsInfo.shape[1];
  int64_t elements = x->getType().getNumElements();
  if (k <= 0 || elements % k != 0)
    return opError() << "input of " << elements
                     << " elements is not a multiple of the depth " << k;
  int64_t m = elements / k;
  if (llvm::any_of(weightsInfo.zeroPoints, [](int64_t z) { return z != 0; }))
    return opError() << "weights '" << weightsInfo.name
                     << "' have a non-zero zero point";
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, fully_connected_options::kActivation, 0);
  std::optional<int8_t> format =
      optionScalar<int8_t>(op, fully_connected_options::kWeightsFormat, 0);
  if (!act || !format)
    return opError() << "has malformed options";
  if (*format != 0)
    return opError() << "only the DEFAULT weights format is supported";

  FailureOr<SmallVector<int8_t>> weights = constantI8(in[1], n * k);
  if (failed(weights))
    return failure();
  FailureOr<SmallVector<int32_t>> bias = optionalBias(in, n);
  if (failed(bias))
    return failure();
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  if (failed(outType))
    return failure();
  if (outType->getNumElements() != m * n)
    return opError() << "output '" << tensors[out].name << "' must hold "
                     << m * n << " elements";
  FailureOr<SmallVector<Multiplier>> multipliers =
      channelMultipliers(x->scale, weightsInfo.scales, n, outScale);
  if (failed(multipliers))
    return failure();

  // TFLite stores [n, k]; tosa.matmul takes [1, k, n].
  SmallVector<int8_t> transposed(n * k);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      transposed[j * n + i] = (*weights)[i * k + j];
  Value input = x->value;
  if (x->getType().getShape() != llvm::ArrayRef<int64_t>{1, m, k})
    input = tosa.reshape(input, {1, m, k});
  Value acc = tosa.fullyConnected(input, x->zp, n, transposed, *bias);
  auto accType = cast<RankedTensorType>(acc.getType());
  Value y = tosa.rescale(acc, accType.clone(builder.getI8Type()), *multipliers,
                         0, outZp, /*perChannel=*/true);
  FailureOr<Value> result = applyActivation(y, *act, outScale, outZp);
  if (failed(result))
    return failure();
  Value value = *result;
  if (outType->getShape() != accType.getShape())
    value = tosa.reshape(value, outType->getShape());
  define(out, QuantValue{value, outScale, outZp});
  return success();
}

FailureOr<bool> Importer::importWithScalar(Table op, ArrayRef<int32_t> in,
                                           int32_t out, Builtin kind) {
  if (in.size() != 2)
    return opError() << "expects two operands";
  auto isScalarConstant = [&](int32_t t) {
    return isConstantOperand(t) &&
           llvm::all_of(tensors[t].shape, [](int64_t d) { return d == 1; });
  };
  bool lhsConst = isScalarConstant(in[0]), rhsConst = isScalarConstant(in[1]);
  if (!lhsConst && !rhsConst)
    return false;
  if (lhsConst && rhsConst)
    return opError() << "has two constant operands";
  int32_t constIndex = lhsConst ? in[0] : in[1];
  FailureOr<QuantValue> x = activation(lhsConst ? in[1] : in[0]);
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "reads a padded tensor";
  // A constant of higher rank broadcasts the output: the general path.
  if (ArrayRef<int64_t>(tensors[out].shape) != x->getType().getShape())
    return false;
  const TensorInfo &c = tensors[constIndex];
  FailureOr<SmallVector<int8_t>> value = constantI8(constIndex, 1);
  double cScale, outScale;
  int32_t cZp, outZp;
  if (failed(value) || failed(activationQuant(constIndex, cScale, cZp)) ||
      failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, x->getType().getShape())))
    return failure();
  // ADD, SUB and MUL options all hold the fused activation in field 0.
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, add_options::kActivation, 0);
  if (!act)
    return opError() << "has malformed options";
  FailureOr<std::pair<int64_t, int64_t>> range =
      activationRange(*act, outScale, outZp);
  if (failed(range))
    return failure();
  namespace fp = fixedpoint;
  fp::Int8Quant xq{static_cast<float>(x->scale), x->zp};
  fp::Int8Quant cq{static_cast<float>(cScale), cZp};
  fp::BinaryOperands ops{lhsConst ? cq : xq, lhsConst ? xq : cq,
                         {static_cast<float>(outScale), outZp}, (*value)[0],
                         lhsConst};
  fp::BinaryKind binary = kind == Builtin::Add   ? fp::BinaryKind::Add
                          : kind == Builtin::Sub ? fp::BinaryKind::Sub
                                                 : fp::BinaryKind::Mul;
  std::optional<fp::Int8Table> table = fp::binaryTable(
      binary, ops, static_cast<int32_t>(range->first),
      static_cast<int32_t>(range->second));
  if (!table)
    return opError() << "has a rescale TFLite's int8 arithmetic rejects or "
                        "overflows (constant '"
                     << c.name << "', output scale " << outScale << ")";
  define(out, QuantValue{tosa.table(x->value, SmallVector<int8_t>(
                                                  table->begin(), table->end())),
                         outScale, outZp});
  return true;
}

/// TFLM's int8 MUL is out = zo + MultiplyByQuantizedMultiplier((x - zx) *
/// (c - zc), m, s) with (m, s) of s_x * s_c / s_out in double: with the
/// constant per channel that is a 1x1 depthwise whose weights are c - zc
/// (when they fit int8) and a per-tensor rescale by (m, s).
FailureOr<bool> Importer::importChannelMul(Table op, ArrayRef<int32_t> in,
                                           int32_t out) {
  auto channelConstant = [&](int32_t t, int64_t channels) {
    if (!isConstantOperand(t))
      return false;
    ArrayRef<int64_t> shape = tensors[t].shape;
    return !shape.empty() && shape.back() == channels &&
           llvm::all_of(shape.drop_back(), [](int64_t d) { return d == 1; });
  };
  for (int side = 0; side < 2; ++side) {
    int32_t xIndex = in[1 - side], cIndex = in[side];
    if (xIndex < 0 || xIndex >= static_cast<int32_t>(tensors.size()) ||
        !values[xIndex])
      continue;
    ArrayRef<int64_t> shape = values[xIndex]->getType().getShape();
    if (shape.size() != 4 || shape[0] != 1 ||
        !channelConstant(cIndex, shape[3]))
      continue;
    return importChannelMulOf(op, *values[xIndex], cIndex, out);
  }
  return false;
}

FailureOr<bool> Importer::importChannelMulOf(Table op, const QuantValue &x,
                                             int32_t cIndex, int32_t out) {
  if (x.isPadded())
    return opError() << "reads a padded tensor";
  ArrayRef<int64_t> shape = x.getType().getShape();
  // An output of another rank (a constant of higher rank) broadcasts: the
  // general MUL takes it.
  if (ArrayRef<int64_t>(tensors[out].shape) != shape)
    return false;
  int64_t channels = shape[3];
  FailureOr<SmallVector<int8_t>> c = constantI8(cIndex, channels);
  double cScale, outScale;
  int32_t cZp, outZp;
  if (failed(c) || failed(activationQuant(cIndex, cScale, cZp)) ||
      failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, shape)))
    return failure();
  SmallVector<int8_t> weights;
  for (int8_t v : *c) {
    int32_t w = v - cZp;
    // Not a depthwise weight: the general MUL reads the constant instead.
    if (w < kInt8Min || w > kInt8Max)
      return false;
    weights.push_back(static_cast<int8_t>(w));
  }
  fixedpoint::QuantizedMultiplier m =
      fixedpoint::quantizeMultiplier(x.scale * cScale / outScale);
  // TFLM shifts the product (at most 255 * 255) left in int32 first.
  constexpr int64_t kMaxProduct = 255 * 255;
  if (!fixedpoint::leftShiftFitsInt32(kMaxProduct, m.shift))
    return opError() << "rescales by " << x.scale * cScale / outScale
                     << ", whose left shift overflows TFLite's int32 "
                        "arithmetic";
  llvm::Expected<Multiplier> tm = tfliteMultiplier(m.multiplier, m.shift);
  if (!tm)
    return opError() << llvm::toString(tm.takeError());
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, add_options::kActivation, 0);
  if (!act)
    return opError() << "has malformed options";
  DimPads rows{0, 0, 0, shape[1]}, cols{0, 0, 0, shape[2]};
  Value product = tosa.depthwiseConv2d(
      x.value, x.zp, {1, 1, channels, 1}, weights,
      SmallVector<int32_t>(channels, 0), rows, cols, 1, 1);
  auto outType =
      cast<RankedTensorType>(product.getType()).clone(builder.getI8Type());
  Value y = tosa.rescale(product, outType, {*tm}, 0, outZp,
                         /*perChannel=*/false);
  if (failed(defineActivated(out, y, *act, outScale, outZp)))
    return failure();
  return true;
}

FailureOr<QuantValue> Importer::binaryOperand(int32_t t, size_t rank) {
  FailureOr<QuantValue> x;
  if (isConstantOperand(t)) {
    const TensorInfo &c = tensors[t];
    x = QuantValue{};
    std::optional<int64_t> count =
        boundedElements(c.shape, kMaxTensorElements);
    if (!count)
      return opError() << "constant '" << c.name
                       << "' needs a positive shape of at most "
                       << kMaxTensorElements << " elements";
    FailureOr<SmallVector<int8_t>> data = constantI8(t, *count);
    if (failed(data) || failed(activationQuant(t, x->scale, x->zp)))
      return failure();
    SmallVector<int64_t> shape(rank - c.shape.size(), 1);
    llvm::append_range(shape, c.shape);
    x->value = tosa.constI8(shape, *data);
    return x;
  }
  x = activation(t);
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "reads a padded tensor";
  ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.size() < rank) {
    SmallVector<int64_t> ranked(rank - shape.size(), 1);
    llvm::append_range(ranked, shape);
    x->value = tosa.reshape(x->value, ranked);
  }
  return x;
}

FailureOr<Importer::BinaryOperands>
Importer::binaryOperands(ArrayRef<int32_t> in) {
  if (in.size() != 2)
    return opError() << "expects two operands";
  for (int32_t t : in)
    if (t < 0 || t >= static_cast<int32_t>(tensors.size()))
      return opError() << "operand tensor " << t << " does not exist";
  if (isConstantOperand(in[0]) && isConstantOperand(in[1]))
    return opError() << "has two constant operands";
  ArrayRef<int64_t> lhsShape = tensors[in[0]].shape;
  ArrayRef<int64_t> rhsShape = tensors[in[1]].shape;
  size_t rank = std::max(lhsShape.size(), rhsShape.size());
  // TFLite broadcasting: shapes right-aligned, a dimension of 1 stretches.
  SmallVector<int64_t> outShape(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    auto dimOf = [&](ArrayRef<int64_t> shape) {
      return i < shape.size() ? shape[shape.size() - 1 - i] : int64_t(1);
    };
    int64_t l = dimOf(lhsShape), r = dimOf(rhsShape);
    if (l != r && l != 1 && r != 1) {
      auto diag = opError() << "operands of shapes [";
      llvm::interleaveComma(lhsShape, diag);
      diag << "] and [";
      llvm::interleaveComma(rhsShape, diag);
      return diag << "] do not broadcast";
    }
    outShape[rank - 1 - i] = l == 1 ? r : l;
  }
  FailureOr<QuantValue> lhs = binaryOperand(in[0], rank);
  if (failed(lhs))
    return failure();
  FailureOr<QuantValue> rhs = binaryOperand(in[1], rank);
  if (failed(rhs))
    return failure();
  return BinaryOperands{*lhs, *rhs,
                        RankedTensorType::get(outShape, builder.getI8Type())};
}

FailureOr<Importer::BinaryOutput>
Importer::binaryOutput(Table op, int32_t out, ArrayRef<int64_t> shape) {
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, add_options::kActivation, 0);
  if (!act)
    return opError() << "has malformed options";
  BinaryOutput output{*act, 0.0, 0};
  if (failed(activationType(out)) ||
      failed(activationQuant(out, output.scale, output.zp)) ||
      failed(checkShape(out, shape)))
    return failure();
  return output;
}

/// ADD or SUB of two operands that broadcast (at most one a constant), as
/// TFLite Micro's int8 kernels compute them: both operands rescaled relative to twice the larger
/// input scale with 2^kAddInputShift of headroom, summed (or subtracted),
/// rescaled to the output. ADD forms the ratios in double, SUB in float
/// (CalculateOpDataAdd / CalculateOpDataSub).
LogicalResult Importer::importAdd(Table op, ArrayRef<int32_t> in, int32_t out,
                                  bool subtract) {
  FailureOr<BinaryOperands> operands = binaryOperands(in);
  if (failed(operands))
    return failure();
  auto [lhs, rhs] = std::make_pair(&operands->lhs, &operands->rhs);
  FailureOr<BinaryOutput> output =
      binaryOutput(op, out, operands->outType.getShape());
  if (failed(output))
    return failure();
  auto [act, outScale, outZp] = *output;
  double headroom = static_cast<double>(int64_t(1) << kAddInputShift);
  double lhsRatio, rhsRatio, outRatio;
  if (subtract) {
    auto f = [](double v) { return static_cast<float>(v); };
    float twiceMax = 2 * std::max(f(lhs->scale), f(rhs->scale));
    lhsRatio = static_cast<double>(f(lhs->scale) / twiceMax);
    rhsRatio = static_cast<double>(f(rhs->scale) / twiceMax);
    outRatio = static_cast<double>(
        twiceMax / (static_cast<float>(1 << kAddInputShift) * f(outScale)));
  } else {
    double twiceMax = 2.0 * std::max(lhs->scale, rhs->scale);
    lhsRatio = lhs->scale / twiceMax;
    rhsRatio = rhs->scale / twiceMax;
    outRatio = twiceMax / (headroom * outScale);
  }
  // The headroom shift is folded into the input multipliers (exact: a
  // power of two).
  llvm::Expected<Multiplier> lhsM = quantizeScale(lhsRatio * headroom);
  llvm::Expected<Multiplier> rhsM = quantizeScale(rhsRatio * headroom);
  llvm::Expected<Multiplier> outM = quantizeScale(outRatio);
  if (!lhsM || !rhsM || !outM)
    return opError() << llvm::toString(llvm::joinErrors(
               lhsM.takeError(),
               llvm::joinErrors(rhsM.takeError(), outM.takeError())));
  Value y = tosa.add(lhs->value, lhs->zp, *lhsM, rhs->value, rhs->zp, *rhsM,
                     operands->outType, *outM, outZp, subtract);
  return defineActivated(out, y, act, outScale, outZp);
}

/// MUL of two operands that broadcast (a squeeze-and-excite block's
/// per-channel gate [1, 1, 1, C] the common case; at most one a constant),
/// as TFLite Micro computes it: MultiplyByQuantizedMultiplier((x - zx) * (y - zy),
/// s_x * s_y / s_out) + z_out, the multiplier formed in double.
LogicalResult Importer::importMul(Table op, ArrayRef<int32_t> in,
                                  int32_t out) {
  FailureOr<BinaryOperands> operands = binaryOperands(in);
  if (failed(operands))
    return failure();
  auto [lhs, rhs] = std::make_pair(&operands->lhs, &operands->rhs);
  RankedTensorType full = operands->outType;
  FailureOr<BinaryOutput> output = binaryOutput(op, out, full.getShape());
  if (failed(output))
    return failure();
  auto [act, outScale, outZp] = *output;
  fixedpoint::QuantizedMultiplier m =
      fixedpoint::quantizeMultiplier(lhs->scale * rhs->scale / outScale);
  // TFLM shifts the product (at most 255 * 255) left in int32 first.
  constexpr int64_t kMaxProduct = 255 * 255;
  if (!fixedpoint::leftShiftFitsInt32(kMaxProduct, m.shift))
    return opError() << "rescales by " << lhs->scale * rhs->scale / outScale
                     << ", whose left shift overflows TFLite's int32 "
                        "arithmetic";
  llvm::Expected<Multiplier> tm = tfliteMultiplier(m.multiplier, m.shift);
  if (!tm)
    return opError() << llvm::toString(tm.takeError());
  Value y = tosa.mul(lhs->value, lhs->zp, rhs->value, rhs->zp, full, *tm,
                     outZp);
  return defineActivated(out, y, act, outScale, outZp);
}

LogicalResult Importer::importPool(Table op, ArrayRef<int32_t> in,
                                   int32_t out, bool max) {
  if (in.size() != 1)
    return opError() << "expects one operand";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  llvm::ArrayRef<int64_t> xShape = x->getType().getShape();
  if (xShape.size() != 4)
    return opError() << "input must be NHWC";
  std::optional<Table> options = op.table(op::kBuiltinOptions);
  if (!options)
    return opError() << "has no options";
  std::optional<int8_t> padding =
      options->scalar<int8_t>(pool_options::kPadding, 0);
  std::optional<int32_t> sw =
      options->scalar<int32_t>(pool_options::kStrideW, 0);
  std::optional<int32_t> sh =
      options->scalar<int32_t>(pool_options::kStrideH, 0);
  std::optional<int32_t> fw =
      options->scalar<int32_t>(pool_options::kFilterW, 0);
  std::optional<int32_t> fh =
      options->scalar<int32_t>(pool_options::kFilterH, 0);
  std::optional<int8_t> act =
      options->scalar<int8_t>(pool_options::kActivation, 0);
  if (!padding || !sw || !sh || !fw || !fh || !act)
    return opError() << "has malformed options";
  if (*sw < 1 || *sh < 1 || *fw < 1 || *fh < 1)
    return opError() << "filter and strides must be positive";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "input and output quantisation differ; TFLite's int8 "
                        "pooling keeps it";
  FailureOr<DimPads> h = window("height", xShape[1], *fh, *sh,
                                static_cast<PaddingKind>(*padding), 0, 0);
  if (failed(h))
    return failure();
  FailureOr<DimPads> w = window("width", xShape[2], *fw, *sw,
                                static_cast<PaddingKind>(*padding), 0, 0);
  if (failed(w) ||
      failed(checkShape(out, {xShape[0], h->out, w->out, xShape[3]})))
    return failure();
  Value input = tosa.sliceTail(x->value, h->trim, w->trim);
  if (max) {
    Value y = tosa.maxPool2d(input, *fh, *fw, *sh, *sw, *h, *w);
    return defineActivated(out, y, *act, outScale, outZp);
  }
  Value y = tosa.avgPool2d(input, x->zp, outZp, *fh, *fw, *sh, *sw, *h, *w);
  // TFLite rounds a tie away from zero, TOSA up: record whose it is.
  context->getLoadedDialect<VMCUDialect>()->getRoundHalfAwayAttrHelper().setAttr(
      y.getDefiningOp(), UnitAttr::get(context));
  return defineActivated(out, y, *act, outScale, outZp);
}

LogicalResult Importer::importReshape(ArrayRef<int32_t> in, int32_t out) {
  if (in.empty())
    return opError() << "expects an operand";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outType->getNumElements() != x->getType().getNumElements())
    return opError() << "reshapes " << x->getType() << " to " << *outType;
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "changes the quantisation";
  QuantValue y = *x;
  if (outType->getShape() != x->getType().getShape())
    y.value = tosa.reshape(x->value, outType->getShape());
  define(out, y);
  return success();
}

LogicalResult Importer::importPad(ArrayRef<int32_t> in, int32_t out) {
  if (in.size() != 2)
    return opError() << "expects input and paddings";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "pads an already padded tensor";
  if (x->getType().getRank() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int32_t>> pads = constantI32(in[1], 8);
  if (failed(pads))
    return failure();
  if ((*pads)[0] || (*pads)[1] || (*pads)[6] || (*pads)[7])
    return opError() << "pads the batch or channel dimension";
  if (llvm::any_of(*pads, [](int32_t p) { return p < 0; }))
    return opError() << "has a negative padding";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)))
    return failure();
  if (outScale != x->scale || outZp != x->zp)
    return opError() << "changes the quantisation";
  QuantValue y = *x;
  for (int i = 0; i < 4; ++i)
    y.pad[i] = (*pads)[2 + i];
  if (!y.isPadded()) {
    define(out, y);
    return success();
  }
  // A PAD pads with the zero point, which is what a convolution's own
  // padding does: fold it into every consumer.
  for (auto [user, operand] : readers[out]) {
    if (!live[user])
      continue;
    int32_t code = opRefs[user].code;
    bool window = code == static_cast<int32_t>(Builtin::Conv2D) ||
                  code == static_cast<int32_t>(Builtin::DepthwiseConv2D);
    if (!window || operand != 0)
      return opError() << "feeds operator #" << user << " ("
                       << builtinName(code)
                       << "); vmcu folds a PAD only into the input of a "
                          "CONV_2D or DEPTHWISE_CONV_2D";
  }
  define(out, y);
  return success();
}

FailureOr<SmallVector<int64_t>> Importer::meanAxes(int32_t index,
                                                   int64_t rank) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size()))
    return opError() << "axes tensor " << index << " does not exist";
  // At most one entry per dimension of the input.
  std::optional<int64_t> count = boundedElements(tensors[index].shape, rank);
  if (!count)
    return opError() << "axes tensor '" << tensors[index].name
                     << "' needs a positive shape of at most " << rank
                     << " elements";
  FailureOr<SmallVector<int32_t>> raw = constantI32(index, *count);
  if (failed(raw))
    return failure();
  SmallVector<int64_t> axes;
  for (int32_t a : *raw) {
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank)
      return opError() << "axis " << a << " is out of range for rank " << rank;
    if (!llvm::is_contained(axes, axis))
      axes.push_back(axis);
  }
  llvm::sort(axes);
  return axes;
}

/// TFLM's int8 MEAN (reference_ops::QuantizedMeanOrSum, integer): the
/// input/output scale ratio as (m, s), 1/n folded into it as
/// m' = (m << sh) / n, s' = s - sh with sh = min(floor(log2 n), 32, 31 + s),
/// then out = MultiplyByQuantizedMultiplier(sum(x - zp), m', s') + out_zp.
/// In TOSA that is a depthwise window of ones over H x W and a rescale.
LogicalResult Importer::importMean(Table op, ArrayRef<int32_t> in,
                                   int32_t out) {
  if (in.size() != 2)
    return opError() << "expects input and axes";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "reads a padded tensor";
  ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.size() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int64_t>> axes = meanAxes(in[1], 4);
  if (failed(axes))
    return failure();
  if (*axes != SmallVector<int64_t>{1, 2}) {
    auto diag = opError() << "reduces axes [";
    llvm::interleaveComma(*axes, diag);
    return diag << "]; vmcu takes the MEAN over H and W (axes 1 and 2)";
  }
  std::optional<uint8_t> keepDims =
      optionScalar<uint8_t>(op, reducer_options::kKeepDims, 0);
  if (!keepDims)
    return opError() << "has malformed options";
  int64_t batch = shape[0], h = shape[1], w = shape[2], c = shape[3];
  int64_t n = h * w;
  double outScale;
  int32_t outZp;
  SmallVector<int64_t> outShape = *keepDims
                                      ? SmallVector<int64_t>{batch, 1, 1, c}
                                      : SmallVector<int64_t>{batch, c};
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, outShape)))
    return failure();
  fixedpoint::QuantizedMultiplier ratio =
      fixedpoint::quantizeMultiplier(x->scale / outScale);
  int foldShift =
      std::min<int>({static_cast<int>(llvm::Log2_64(n)), 32, 31 + ratio.shift});
  auto folded = static_cast<int32_t>(
      (static_cast<int64_t>(ratio.multiplier) << foldShift) / n);
  int shift = ratio.shift - foldShift;
  // TFLite shifts the sum left by `shift` in int32 first.
  constexpr int64_t kMaxInt8Difference = 255;
  if (!fixedpoint::leftShiftFitsInt32(kMaxInt8Difference * n, shift))
    return opError() << "rescales the sum of " << n << " values left by "
                     << shift << " bits, which overflows TFLite's int32 "
                     << "arithmetic";
  llvm::Expected<Multiplier> m = tfliteMultiplier(folded, shift);
  if (!m)
    return opError() << llvm::toString(m.takeError());
  DimPads whole{0, 0, 0, 1};
  Value sum = tosa.depthwiseConv2d(x->value, x->zp, {h, w, c, 1},
                                   SmallVector<int8_t>(n * c, 1),
                                   SmallVector<int32_t>(c, 0), whole, whole,
                                   /*strideH=*/1, /*strideW=*/1);
  auto outType =
      cast<RankedTensorType>(sum.getType()).clone(builder.getI8Type());
  Value y = tosa.rescale(sum, outType, {*m}, 0, outZp, /*perChannel=*/false);
  if (!*keepDims)
    y = tosa.reshape(y, outShape);
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

LogicalResult Importer::importSoftmax(Table op, ArrayRef<int32_t> in,
                                      int32_t out) {
  if (in.size() != 1)
    return opError() << "expects one operand";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  std::optional<float> beta =
      optionScalar<float>(op, softmax_options::kBeta, 0.0f);
  if (!beta)
    return opError() << "has malformed options";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, x->getType().getShape())))
    return failure();
  // TFLite Micro's SoftmaxPrepare: int8 output in [0, 1) steps of 1/256.
  if (outZp != kSoftmaxOutputZeroPoint ||
      static_cast<float>(outScale) != kSoftmaxOutputScale)
    return opError() << "int8 output must have scale 1/256 and zero point "
                     << kSoftmaxOutputZeroPoint << " (TFLite's), got scale "
                     << outScale << " and zero point " << outZp;
  if (x->getType().getRank() == 0)
    return opError() << "needs an input of rank at least 1";
  int64_t depth = x->getType().getShape().back();
  if (depth > SoftmaxOp::kMaxDepth)
    return opError() << "rows of " << depth << " elements; vmcu supports up to "
                     << SoftmaxOp::kMaxDepth;
  std::optional<fixedpoint::SoftmaxParams> params =
      fixedpoint::softmaxParams(static_cast<double>(*beta), x->scale);
  if (!params)
    return opError() << "beta * input scale (" << *beta << " * " << x->scale
                     << ") is too small for TFLite's fixed-point softmax";
  Value y = SoftmaxOp::create(
      builder, tosa.getLoc(), x->getType(), x->value,
      builder.getI32IntegerAttr(params->multiplier),
      builder.getI32IntegerAttr(params->leftShift),
      builder.getI32IntegerAttr(params->diffMin), IntegerAttr());
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

LogicalResult Importer::importTranspose(ArrayRef<int32_t> in, int32_t out) {
  if (in.size() != 2)
    return opError() << "expects input and perm";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  RankedTensorType inType = x->getType();
  int64_t rank = inType.getRank();
  FailureOr<SmallVector<int32_t>> perm = constantI32(in[1], rank);
  if (failed(perm))
    return failure();
  SmallVector<int64_t> shape;
  llvm::SmallBitVector seen(rank);
  for (int32_t p : *perm) {
    if (p < 0 || p >= rank || seen.test(p))
      return opError() << "perm is not a permutation of 0.." << rank - 1;
    seen.set(p);
    shape.push_back(inType.getDimSize(p));
  }
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, shape)))
    return failure();
  // TFLite Micro copies the int8 bytes.
  Value y = tosa::TransposeOp::create(builder, tosa.getLoc(),
                                      inType.clone(shape), x->value, *perm);
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

/// reference_ops::GetNearestNeighbor for every output index: the input
/// index TFLite Micro reads, in its float arithmetic (TfLiteRound rounds
/// half away from zero).
static SmallVector<int64_t> nearestIndexMap(int32_t inSize, int32_t outSize,
                                            bool alignCorners,
                                            bool halfPixelCenters) {
  float scale = alignCorners && outSize > 1
                    ? static_cast<float>(inSize - 1) /
                          static_cast<float>(outSize - 1)
                    : static_cast<float>(inSize) / static_cast<float>(outSize);
  float offset = halfPixelCenters ? 0.5f : 0.0f;
  SmallVector<int64_t> map;
  for (int32_t o = 0; o < outSize; ++o) {
    float position = (static_cast<float>(o) + offset) * scale;
    auto index = static_cast<int32_t>(alignCorners ? std::round(position)
                                                   : std::floor(position));
    index = std::min(index, inSize - 1);
    if (halfPixelCenters)
      index = std::max(index, 0);
    map.push_back(index);
  }
  return map;
}

/// RESIZE_NEAREST_NEIGHBOR to the constant [height, width]: the index maps
/// TFLite Micro computes, as a vmcu.resize_nearest (TOSA's resize rounds
/// its own way, so the maps go straight to the layer). The bytes are
/// copied, whatever the output's quantisation, as TFLite Micro does.
LogicalResult Importer::importResizeNearest(Table op, ArrayRef<int32_t> in,
                                            int32_t out) {
  if (in.size() != 2)
    return opError() << "expects input and size";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = x->getType().getShape();
  if (shape.size() != 4)
    return opError() << "input must be NHWC";
  FailureOr<SmallVector<int32_t>> size = constantI32(in[1], 2);
  if (failed(size))
    return failure();
  if ((*size)[0] < 1 || (*size)[1] < 1)
    return opError() << "output size must be positive, got "
                     << (*size)[0] << "x" << (*size)[1];
  std::optional<uint8_t> align =
      optionScalar<uint8_t>(op, resize_nearest_options::kAlignCorners, 0);
  std::optional<uint8_t> halfPixel =
      optionScalar<uint8_t>(op, resize_nearest_options::kHalfPixelCenters, 0);
  if (!align || !halfPixel)
    return opError() << "has malformed options";
  SmallVector<int64_t> outShape = {shape[0], (*size)[0], (*size)[1], shape[3]};
  double outScale;
  int32_t outZp;
  // The declared output is bounded (activationType) before the maps are.
  if (failed(activationType(out)) ||
      failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, outShape)))
    return failure();
  auto inSize = [&](int d) { return static_cast<int32_t>(shape[d]); };
  SmallVector<int64_t> rows =
      nearestIndexMap(inSize(1), (*size)[0], *align, *halfPixel);
  SmallVector<int64_t> cols =
      nearestIndexMap(inSize(2), (*size)[1], *align, *halfPixel);
  Value y = ResizeNearestOp::create(
      builder, tosa.getLoc(), x->getType().clone(outShape), x->value,
      builder.getDenseI64ArrayAttr(rows), builder.getDenseI64ArrayAttr(cols),
      IntegerAttr());
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

LogicalResult Importer::importConcatenation(Table op, ArrayRef<int32_t> in,
                                            int32_t out) {
  if (in.empty())
    return opError() << "expects at least one operand";
  std::optional<int32_t> axis =
      optionScalar<int32_t>(op, concatenation_options::kAxis, 0);
  std::optional<int8_t> act =
      optionScalar<int8_t>(op, concatenation_options::kActivation, 0);
  if (!axis || !act)
    return opError() << "has malformed options";
  // TFLite Micro's Prepare rejects a fused activation.
  if (*act != static_cast<int8_t>(Activation::None))
    return opError() << "has a fused activation; TFLite Micro's "
                        "CONCATENATION takes none";
  SmallVector<Value> pieces;
  for (auto [i, t] : llvm::enumerate(in)) {
    if (isConstantOperand(t))
      return opError() << "operand #" << i << " is a constant; vmcu "
                       << "concatenates activations";
    FailureOr<QuantValue> x = activation(t);
    if (failed(x))
      return failure();
    pieces.push_back(x->value);
  }
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)))
    return failure();
  int64_t rank = outType->getRank();
  int64_t positive = *axis < 0 ? *axis + rank : *axis;
  if (positive < 0 || positive >= rank)
    return opError() << "axis " << *axis << " is outside rank " << rank;
  int64_t extent = 0;
  for (Value piece : pieces) {
    auto type = cast<RankedTensorType>(piece.getType());
    bool sameElsewhere = type.getRank() == rank;
    for (int64_t d = 0; sameElsewhere && d < rank; ++d)
      sameElsewhere = d == positive ||
                      type.getDimSize(d) == outType->getDimSize(d);
    if (!sameElsewhere)
      return opError() << "operand " << type << " does not fit output "
                       << *outType << " along axis " << positive;
    extent += type.getDimSize(positive);
  }
  if (extent != outType->getDimSize(positive))
    return opError() << "operands add up to " << extent << " along axis "
                     << positive << ", the output has "
                     << outType->getDimSize(positive);
  // TFLite Micro copies the int8 bytes whatever the operands' scales.
  Value y = tosa.concat(pieces, static_cast<int32_t>(positive));
  define(out, QuantValue{y, outScale, outZp});
  return success();
}


FailureOr<std::pair<int64_t, int64_t>>
Importer::stridedAxis(Table op, int64_t d, int64_t extent, int32_t begin,
                      int32_t end, int32_t stride) {
  namespace so = strided_slice_options;
  auto maskBit = [&](unsigned field) -> std::optional<bool> {
    std::optional<int32_t> mask = optionScalar<int32_t>(op, field, 0);
    if (!mask)
      return std::nullopt;
    return (*mask >> d) & 1;
  };
  std::optional<bool> beginMask = maskBit(so::kBeginMask);
  std::optional<bool> endMask = maskBit(so::kEndMask);
  std::optional<bool> shrink = maskBit(so::kShrinkAxisMask);
  std::optional<bool> offset = optionScalar<bool>(op, so::kOffset, false);
  if (!beginMask || !endMask || !shrink || !offset)
    return opError() << "has malformed options";
  int64_t first = begin < 0 ? begin + extent : begin;
  first = *beginMask ? 0 : std::clamp<int64_t>(first, 0, extent);
  int64_t stop;
  if (*shrink) {
    stop = first >= extent ? first : first + 1;
  } else {
    stop = *offset ? int64_t(end) + first : int64_t(end);
    stop = stop < 0 ? stop + extent : stop;
    stop = *endMask ? extent : std::clamp<int64_t>(stop, 0, extent);
  }
  int64_t count = stop > first ? (stop - first + stride - 1) / stride : 0;
  return std::make_pair(first, count);
}

FailureOr<Importer::SliceBox>
Importer::sliceBox(Table op, RankedTensorType inType, ArrayRef<int32_t> begin,
                   ArrayRef<int32_t> second, ArrayRef<int32_t> strides,
                   bool strided) {
  namespace so = strided_slice_options;
  int64_t rank = inType.getRank();
  SliceBox box{SmallVector<int64_t>(rank, 0),
               SmallVector<int64_t>(inType.getShape()),
               SmallVector<int64_t>(rank, 1), {}};
  SmallVector<int64_t> &start = box.start, &size = box.size,
                       &stride = box.stride;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = inType.getDimSize(d);
    int32_t step = strides[d];
    if (step <= 0)
      return opError() << "has stride " << step << " on axis " << d
                       << "; vmcu imports positive strides";
    bool shrunk = false;
    if (strided) {
      FailureOr<std::pair<int64_t, int64_t>> axis =
          stridedAxis(op, d, extent, begin[d], second[d], step);
      std::optional<int32_t> mask =
          optionScalar<int32_t>(op, so::kShrinkAxisMask, 0);
      if (failed(axis) || !mask)
        return failure();
      std::tie(start[d], size[d]) = *axis;
      shrunk = (*mask >> d) & 1;
    } else {
      start[d] = begin[d];
      size[d] = second[d] == -1 ? extent - start[d] : second[d];
    }
    stride[d] = step;
    if (start[d] < 0 || size[d] < 1 ||
        start[d] + (size[d] - 1) * stride[d] >= extent)
      return opError() << "selects " << size[d] << " elements from "
                       << start[d] << " on axis " << d << " of " << extent;
    if (!shrunk)
      box.kept.push_back(size[d]);
  }
  return box;
}

/// TFLite Micro's STRIDED_SLICE handles up to 5 dimensions (kMaxDim).
constexpr int64_t kMaxSliceRank = 5;
/// SLICE: input, begin, size; STRIDED_SLICE: input, begin, end, strides.
constexpr unsigned kSliceOperands = 3, kStridedSliceOperands = 4;

LogicalResult Importer::importSlice(Table op, ArrayRef<int32_t> in,
                                    int32_t out, bool strided) {
  namespace so = strided_slice_options;
  unsigned operands = strided ? kStridedSliceOperands : kSliceOperands;
  if (in.size() != operands)
    return opError() << "expects " << operands << " operands";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  RankedTensorType inType = x->getType();
  int64_t rank = inType.getRank();
  if (rank > kMaxSliceRank)
    return opError() << "slices a rank-" << rank << " tensor; TFLite Micro "
                     << "slices up to rank " << kMaxSliceRank;
  // TFLite Micro reads one begin (end, stride, size) per input dimension.
  FailureOr<SmallVector<int32_t>> begin = constantI32(in[1], rank);
  FailureOr<SmallVector<int32_t>> second = constantI32(in[2], rank);
  FailureOr<SmallVector<int32_t>> strides =
      strided ? constantI32(in[3], rank)
              : FailureOr<SmallVector<int32_t>>(SmallVector<int32_t>(rank, 1));
  if (failed(begin) || failed(second) || failed(strides))
    return failure();
  if (strided) {
    std::optional<int32_t> ellipsis =
        optionScalar<int32_t>(op, so::kEllipsisMask, 0);
    std::optional<int32_t> newAxis =
        optionScalar<int32_t>(op, so::kNewAxisMask, 0);
    if (!ellipsis || !newAxis)
      return opError() << "has malformed options";
    if (*ellipsis || *newAxis)
      return opError() << "uses an ellipsis or new-axis mask; vmcu "
                          "imports STRIDED_SLICE without them";
  }
  FailureOr<SliceBox> box =
      sliceBox(op, inType, *begin, *second, *strides, strided);
  if (failed(box))
    return failure();
  FailureOr<RankedTensorType> outType = activationType(out);
  double outScale;
  int32_t outZp;
  // TFLite Micro checks the output's shape: the box without shrunk axes.
  if (failed(outType) || failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, box->kept)))
    return failure();
  auto boxType = inType.clone(box->size);
  // TOSA's slice where every stride is 1; vmcu.slice otherwise.
  Value y;
  if (llvm::all_of(box->stride, [](int64_t s) { return s == 1; }))
    y = tosa.slice(x->value, box->start, box->size);
  else
    y = SliceOp::create(builder, tosa.getLoc(), boxType, x->value,
                        builder.getDenseI64ArrayAttr(box->start),
                        builder.getDenseI64ArrayAttr(box->stride),
                        IntegerAttr());
  if (boxType.getShape() != outType->getShape())
    y = tosa.reshape(y, outType->getShape());
  // TFLM copies the int8 bytes whatever the output's quantisation.
  define(out, QuantValue{y, outScale, outZp});
  return success();
}
FailureOr<fixedpoint::Int8Table>
Importer::sigmoidOrHardSwish(Builtin kind, double inScale, int32_t inZp,
                             double outScale, int32_t outZp) {
  namespace fp = fixedpoint;
  if (kind == Builtin::HardSwish) {
    std::optional<fp::Int8Table> table =
        fp::hardSwishTable(static_cast<float>(inScale), inZp,
                           static_cast<float>(outScale), outZp);
    if (!table)
      return opError() << "output scale " << outScale
                       << " is finer than the input scale / 128 ("
                       << inScale / 128
                       << "); TFLite's int8 HARD_SWISH has no left shift for it";
    return *table;
  }
  std::optional<fp::SigmoidInput> input = fp::sigmoidInput(inScale, inZp);
  if (!input)
    return opError() << "input scale " << inScale
                     << " has no Q4.27 rescale in TFLite's int32 arithmetic";
  // Both kernels compute in a fixed output quantisation, the one TFLite's
  // converter writes; another would be misread downstream.
  bool logistic = kind == Builtin::Logistic;
  double fixedScale = logistic ? fp::kLogisticOutputScale : fp::kTanhOutputScale;
  int32_t fixedZp = logistic ? fp::kLogisticOutputZeroPoint : fp::kTanhOutputZeroPoint;
  if (outScale != fixedScale || outZp != fixedZp)
    return opError() << "int8 output must have scale "
                     << (logistic ? "1/256" : "1/128") << " and zero point "
                     << fixedZp << " (TFLite's), got scale " << outScale
                     << " and zero point " << outZp;
  if (logistic)
    return fp::logisticTable(*input);
  return fp::tanhTable(*input);
}

LogicalResult Importer::importElementwise(Table op, ArrayRef<int32_t> in,
                                          int32_t out, Builtin kind) {
  if (in.size() != 1)
    return opError() << "expects one operand";
  FailureOr<QuantValue> x = activation(in[0]);
  if (failed(x))
    return failure();
  if (x->isPadded())
    return opError() << "reads a padded tensor";
  double outScale;
  int32_t outZp;
  if (failed(activationQuant(out, outScale, outZp)) ||
      failed(checkShape(out, x->getType().getShape())))
    return failure();
  namespace fp = fixedpoint;
  int32_t inZp = x->zp;
  // TFLite multiplies an int8 difference (|d| <= 255) by 2^shift in int32
  // before rescaling: beyond this left shift that overflows.
  constexpr int kMaxLeftShift = 23;
  auto multiplierFor = [&](double real) -> FailureOr<fp::QuantizedMultiplier> {
    fp::QuantizedMultiplier m = fp::quantizeMultiplier(real);
    if (m.shift > kMaxLeftShift)
      return opError() << "rescales by " << real
                       << ", whose left shift (" << m.shift
                       << ") overflows TFLite's int32 arithmetic";
    return m;
  };
  auto clampInt8 = [](int64_t v) {
    return static_cast<int8_t>(std::clamp<int64_t>(v, kInt8Min, kInt8Max));
  };
  std::function<int8_t(int32_t)> fn;
  switch (kind) {
  case Builtin::Relu: {
    // CalculateReluOpData + ReluQuantized.
    FailureOr<fp::QuantizedMultiplier> m = multiplierFor(x->scale / outScale);
    if (failed(m))
      return failure();
    int64_t lo = std::max<int64_t>(kInt8Min, outZp);
    fn = [=, m = *m](int32_t v) {
      int64_t y = outZp + fp::multiplyByQuantizedMultiplier(v - inZp, m);
      return static_cast<int8_t>(std::clamp<int64_t>(y, lo, kInt8Max));
    };
    break;
  }
  case Builtin::Relu6: {
    // Relu6Quantized clamps in the input's quantisation.
    if (outScale != x->scale || outZp != inZp)
      return opError() << "input and output quantisation differ; TFLite's "
                          "int8 RELU6 keeps it";
    float six = std::round(static_cast<float>(kRelu6Max) /
                           static_cast<float>(x->scale));
    int8_t top = clampInt8(static_cast<int64_t>(six) + inZp);
    int8_t zero = clampInt8(inZp);
    fn = [=](int32_t v) {
      return std::min<int8_t>(std::max<int8_t>(static_cast<int8_t>(v), zero),
                              top);
    };
    break;
  }
  case Builtin::LeakyRelu: {
    std::optional<float> alpha =
        optionScalar<float>(op, leaky_relu_options::kAlpha, 0.0f);
    if (!alpha)
      return opError() << "has malformed options";
    if (!std::isfinite(*alpha))
      return opError() << "alpha " << *alpha << " is not finite";
    // CalculateOpDataLeakyRelu forms both scales in float.
    auto inF = static_cast<float>(x->scale), outF = static_cast<float>(outScale);
    FailureOr<fp::QuantizedMultiplier> mIdentity =
        multiplierFor(static_cast<double>(inF / outF));
    if (failed(mIdentity))
      return failure();
    FailureOr<fp::QuantizedMultiplier> mAlpha =
        multiplierFor(static_cast<double>(inF * *alpha / outF));
    if (failed(mAlpha))
      return failure();
    fn = [=, mAlpha = *mAlpha, mIdentity = *mIdentity](int32_t v) {
      int32_t d = v - inZp;
      return clampInt8(outZp + fp::multiplyByQuantizedMultiplier(
                                   d, d >= 0 ? mIdentity : mAlpha));
    };
    break;
  }
  case Builtin::Logistic:
  case Builtin::Tanh:
  case Builtin::HardSwish: {
    FailureOr<fp::Int8Table> table =
        sigmoidOrHardSwish(kind, x->scale, inZp, outScale, outZp);
    if (failed(table))
      return failure();
    fn = [table = *table](int32_t v) { return table[v - kInt8Min]; };
    break;
  }
  default: { // QUANTIZE int8 -> int8: reference_ops::Requantize.
    FailureOr<fp::QuantizedMultiplier> m = multiplierFor(x->scale / outScale);
    if (failed(m))
      return failure();
    fn = [=, m = *m](int32_t v) {
      return clampInt8(fp::multiplyByQuantizedMultiplier(v - inZp, m) + outZp);
    };
    break;
  }
  }
  SmallVector<int8_t> entries;
  for (int32_t v = kInt8Min; v <= kInt8Max; ++v)
    entries.push_back(fn(v));
  define(out, QuantValue{tosa.table(x->value, entries), outScale, outZp});
  return success();
}

LogicalResult Importer::importOperator(Table op, const OperatorRefs &refs) {
  opCode = refs.code;
  const SmallVector<int32_t> *in = &refs.inputs;
  if (refs.outputs.size() != 1)
    return malformed("operator #") << opIndex << " must have one output";
  const SmallVector<int32_t> *out = &refs.outputs;
  int32_t result = (*out)[0];
  outputName = tensors[result].name;
  tosa.setLoc(
      NameLoc::get(StringAttr::get(context, tensors[result].name), fileLoc));

  switch (static_cast<Builtin>(opCode)) {
  case Builtin::Conv2D:
    return importConv(op, *in, result, /*depthwise=*/false);
  case Builtin::DepthwiseConv2D:
    return importConv(op, *in, result, /*depthwise=*/true);
  case Builtin::FullyConnected:
    return importFullyConnected(op, *in, result);
  case Builtin::Add:
  case Builtin::Sub:
  case Builtin::Mul: {
    FailureOr<bool> scalar =
        importWithScalar(op, *in, result, static_cast<Builtin>(opCode));
    if (failed(scalar))
      return failure();
    if (*scalar)
      return success();
    auto code = static_cast<Builtin>(opCode);
    if (code == Builtin::Add || code == Builtin::Sub)
      return importAdd(op, *in, result, code == Builtin::Sub);
    // A per-channel constant is a 1x1 depthwise, cheaper than a broadcast.
    FailureOr<bool> channel = importChannelMul(op, *in, result);
    if (failed(channel))
      return failure();
    if (*channel)
      return success();
    return importMul(op, *in, result);
  }
  case Builtin::AveragePool2D:
    return importPool(op, *in, result, /*max=*/false);
  case Builtin::MaxPool2D:
    return importPool(op, *in, result, /*max=*/true);
  case Builtin::Reshape:
  case Builtin::Squeeze:
  case Builtin::ExpandDims:
    // The output tensor declares the shape; the bytes do not move.
    return importReshape(*in, result);
  case Builtin::Pad:
    return importPad(*in, result);
  case Builtin::Softmax:
    return importSoftmax(op, *in, result);
  case Builtin::Concatenation:
    return importConcatenation(op, *in, result);
  case Builtin::Slice:
    return importSlice(op, *in, result, /*strided=*/false);
  case Builtin::Transpose:
    return importTranspose(*in, result);
  case Builtin::ResizeNearestNeighbor:
    return importResizeNearest(op, *in, result);
  case Builtin::StridedSlice:
    return importSlice(op, *in, result, /*strided=*/true);
  case Builtin::Mean:
    return importMean(op, *in, result);
  case Builtin::Dequantize:
    return opError() << "a DEQUANTIZE to float32 is supported only as the "
                        "model's last operator (a float output edge)";
  case Builtin::Relu:
  case Builtin::Relu6:
  case Builtin::LeakyRelu:
  case Builtin::Quantize:
  case Builtin::Logistic:
  case Builtin::Tanh:
  case Builtin::HardSwish:
    return importElementwise(op, *in, result,
                             static_cast<Builtin>(opCode));
  }
  return opError() << "is not supported (builtin code " << opCode
                   << "); vmcu imports " << supportedTFLiteOperators()
                   << " (DEQUANTIZE and QUANTIZE from or to float32 only at "
                      "the model's edges)";
}

LogicalResult Importer::readOperators() {
  uint64_t operandRefs = 0;
  readers.resize(tensors.size());
  for (uint32_t i = 0; i < operators->size(); ++i) {
    std::optional<Table> op = operators->table(i);
    std::optional<uint32_t> index =
        op ? op->scalar<uint32_t>(op::kOpcodeIndex, 0) : std::nullopt;
    std::optional<Vector> in = op ? op->vector(op::kInputs) : std::nullopt;
    std::optional<Vector> out = op ? op->vector(op::kOutputs) : std::nullopt;
    if (!index || !in || !out)
      return malformed("bad operator #") << i;
    if (*index >= opCodes.size())
      return malformed("operator #") << i << " names operator code " << *index
                                     << " of " << opCodes.size();
    operandRefs += uint64_t(in->size()) + out->size();
    if (operandRefs > kMaxOperandRefs)
      return malformed("more than ")
             << kMaxOperandRefs << " operand references";
    std::optional<SmallVector<int32_t>> inputs = in->scalars<int32_t>();
    std::optional<SmallVector<int32_t>> outputs = out->scalars<int32_t>();
    if (!inputs || !outputs)
      return malformed("bad operands of operator #") << i;
    auto isTensor = [&](int32_t t) {
      return t >= 0 && t < static_cast<int32_t>(tensors.size());
    };
    for (int32_t t : *outputs)
      if (!isTensor(t))
        return malformed("operator #")
               << i << " names tensor " << t << " of " << tensors.size();
    for (auto [j, t] : llvm::enumerate(*inputs)) {
      if (t == -1)
        continue; // an omitted optional operand
      if (!isTensor(t))
        return malformed("operator #")
               << i << " names tensor " << t << " of " << tensors.size();
      readers[t].emplace_back(i, static_cast<uint32_t>(j));
    }
    opRefs.push_back(
        {opCodes[*index], std::move(*inputs), std::move(*outputs)});
  }
  return success();
}

static bool isFloat32(const TensorInfo &t) {
  return t.type == static_cast<int8_t>(tflite::TensorType::Float32);
}

FailureOr<int32_t> Importer::bodyInput(int32_t input) {
  if (!isFloat32(tensors[input]))
    return input;
  const auto &uses = readers[input];
  if (uses.size() != 1 ||
      opRefs[uses[0].first].code != static_cast<int32_t>(Builtin::Quantize) ||
      opRefs[uses[0].first].outputs.size() != 1)
    return emitError(fileLoc)
           << "the model input '" << tensors[input].name
           << "' is float32 and not read by exactly one QUANTIZE; vmcu "
              "compiles the int8 body after an input QUANTIZE";
  skipped.push_back(uses[0].first);
  return opRefs[uses[0].first].outputs[0];
}

FailureOr<int32_t> Importer::bodyOutput(int32_t output) {
  if (!isFloat32(tensors[output]))
    return output;
  for (auto [i, refs] : llvm::enumerate(opRefs))
    if (llvm::is_contained(refs.outputs, output) &&
        refs.code == static_cast<int32_t>(Builtin::Dequantize) &&
        refs.inputs.size() == 1 && refs.inputs[0] >= 0) {
      skipped.push_back(i);
      return refs.inputs[0];
    }
  return emitError(fileLoc)
         << "the model output '" << tensors[output].name
         << "' is float32 and not written by a DEQUANTIZE; vmcu compiles "
            "the int8 body before an output DEQUANTIZE";
}

EdgeAttr Importer::edgeOf(int32_t index, bool isFloat) {
  const QuantValue &v = *values[index];
  return EdgeAttr::get(context,
                       builder.getF32FloatAttr(static_cast<float>(v.scale)),
                       v.zp, isFloat);
}

void Importer::markLiveOperators(ArrayRef<int32_t> outputs) {
  SmallVector<bool> needed(tensors.size(), false);
  for (int32_t output : outputs)
    needed[output] = true;
  live.assign(opRefs.size(), false);
  for (size_t i = opRefs.size(); i-- > 0;) {
    live[i] =
        llvm::any_of(opRefs[i].outputs, [&](int32_t t) { return needed[t]; });
    if (live[i])
      for (int32_t t : opRefs[i].inputs)
        if (t >= 0)
          needed[t] = true;
  }
}

FailureOr<SmallVector<int32_t>> Importer::edgeTensors(const Vector &list,
                                                      StringRef what) {
  if (list.size() == 0)
    return emitError(fileLoc) << "the model has no " << what;
  SmallVector<int32_t> result;
  for (uint32_t i = 0; i < list.size(); ++i) {
    int32_t t = list.scalar<int32_t>(i).value_or(-1);
    if (t < 0 || t >= static_cast<int32_t>(tensors.size()))
      return malformed("bad ") << what << " tensor";
    if (llvm::is_contained(result, t))
      return emitError(fileLoc) << "the model lists tensor '"
                                << tensors[t].name << "' twice as an "
                                << what;
    result.push_back(t);
  }
  return result;
}

OwningOpRef<ModuleOp> Importer::run() {
  if (!isTFLiteFile(bytes))
    return malformed("no TFL3 identifier"), nullptr;
  std::optional<Table> model = Table::root(buffer);
  if (!model || !model->isValid())
    return malformed("bad root table"), nullptr;
  std::optional<Vector> subgraphs = model->vector(model::kSubgraphs);
  if (!subgraphs || subgraphs->size() == 0)
    return malformed("no subgraph"), nullptr;
  if (subgraphs->size() != 1)
    return emitError(fileLoc) << "the model has " << subgraphs->size()
                              << " subgraphs; vmcu imports single-subgraph "
                                 "models",
           nullptr;
  buffers = model->vector(model::kBuffers);
  std::optional<Table> subgraph = subgraphs->table(0);
  if (!buffers || !subgraph)
    return malformed("bad buffers or subgraph"), nullptr;
  if (failed(readOperatorCodes(*model)) || failed(readTensors(*subgraph)))
    return nullptr;
  std::optional<Vector> inputs = subgraph->vector(subgraph::kInputs);
  std::optional<Vector> outputs = subgraph->vector(subgraph::kOutputs);
  operators = subgraph->vector(subgraph::kOperators);
  if (!inputs || !outputs || !operators)
    return malformed("bad subgraph"), nullptr;
  if (failed(readOperators()))
    return nullptr;
  FailureOr<ModelEdges> edges = readEdges(*inputs, *outputs);
  if (failed(edges))
    return nullptr;
  markLiveOperators(edges->outputs);
  for (uint32_t i : skipped)
    live[i] = false;
  return importBody(*edges);
}

FailureOr<Importer::ModelEdges> Importer::readEdges(const Vector &inputs,
                                                    const Vector &outputs) {
  FailureOr<SmallVector<int32_t>> modelInputs = edgeTensors(inputs, "input");
  FailureOr<SmallVector<int32_t>> modelOutputs =
      edgeTensors(outputs, "output");
  if (failed(modelInputs) || failed(modelOutputs))
    return failure();
  ModelEdges edges{std::move(*modelInputs), std::move(*modelOutputs)};
  if (!options.outputTensor.empty()) {
    auto named = llvm::find_if(tensors, [&](const TensorInfo &t) {
      return t.name == options.outputTensor;
    });
    if (named == tensors.end())
      return emitError(fileLoc) << "the model has no tensor named '"
                                << options.outputTensor << "'";
    edges.outputs = {static_cast<int32_t>(named - tensors.begin())};
  }
  // A float edge (QUANTIZE in, DEQUANTIZE out) only on a one-input,
  // one-output model: the header's edge functions describe one of each.
  edges.single = edges.inputs.size() == 1 && edges.outputs.size() == 1;
  for (int32_t &input : edges.inputs) {
    FailureOr<int32_t> body = edges.single ? bodyInput(input) : input;
    if (failed(body))
      return failure();
    edges.floatInput = *body != input;
    input = *body;
  }
  for (int32_t &output : edges.outputs) {
    FailureOr<int32_t> body = edges.single ? bodyOutput(output) : output;
    if (failed(body))
      return failure();
    edges.floatOutput = *body != output;
    output = *body;
  }
  return edges;
}

OwningOpRef<ModuleOp> Importer::importBody(const ModelEdges &edges) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> inTypes, outTypes;
  for (auto [list, types] : {std::pair(&edges.inputs, &inTypes),
                             std::pair(&edges.outputs, &outTypes)})
    for (int32_t t : *list) {
      // Errors about a model input or output point at its tensor.
      tosa.setLoc(
          NameLoc::get(StringAttr::get(context, tensors[t].name), fileLoc));
      FailureOr<RankedTensorType> type = activationType(t);
      if (failed(type))
        return nullptr;
      types->push_back(*type);
    }
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(inTypes, outTypes));
  builder.setInsertionPointToStart(func.addEntryBlock());
  for (auto [i, input] : llvm::enumerate(edges.inputs)) {
    double inScale;
    int32_t inZp;
    tosa.setLoc(
        NameLoc::get(StringAttr::get(context, tensors[input].name), fileLoc));
    if (failed(activationQuant(input, inScale, inZp)))
      return nullptr;
    values[input] = QuantValue{func.getArgument(i), inScale, inZp};
  }
  for (uint32_t i = 0; i < operators->size(); ++i) {
    opIndex = i;
    std::optional<Table> op = operators->table(i);
    if (!op)
      return malformed("bad operator #") << i, nullptr;
    if (live[i] && failed(importOperator(*op, opRefs[i])))
      return nullptr;
  }
  if (failed(returnOutputs(edges.outputs)))
    return nullptr;
  if (!edges.single)
    return module;
  auto *dialect = context->getLoadedDialect<VMCUDialect>();
  dialect->getInputEdgeAttrHelper().setAttr(
      *module, edgeOf(edges.inputs.front(), edges.floatInput));
  dialect->getOutputEdgeAttrHelper().setAttr(
      *module, edgeOf(edges.outputs.front(), edges.floatOutput));
  return module;
}

LogicalResult Importer::returnOutputs(ArrayRef<int32_t> outputs) {
  SmallVector<Value> results;
  for (int32_t output : outputs) {
    tosa.setLoc(
        NameLoc::get(StringAttr::get(context, tensors[output].name), fileLoc));
    if (!values[output])
      return emitError(fileLoc) << "the model output '" << tensors[output].name
                                << "' is never computed";
    if (values[output]->isPadded())
      return emitError(fileLoc) << "the model output is a PAD";
    results.push_back(values[output]->value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  return success();
}

OwningOpRef<ModuleOp>
mlir::vmcu::importTFLite(llvm::ArrayRef<uint8_t> bytes,
                         llvm::StringRef fileName, MLIRContext *context,
                         const TFLiteImportOptions &options) {
  context->loadDialect<func::FuncDialect, tosa::TosaDialect, VMCUDialect>();
  return Importer(bytes, fileName, context, options).run();
}

void mlir::vmcu::registerTFLiteImportDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, tosa::TosaDialect>();
}

void mlir::vmcu::registerTFLiteImportTranslation() {
  static llvm::cl::opt<std::string> outputTensor(
      "tflite-output",
      llvm::cl::desc("import-tflite: the tensor to return instead of the "
                     "model's output"),
      llvm::cl::value_desc("tensor"));
  static TranslateToMLIRRegistration registration(
      "import-tflite", "import an int8 .tflite model as TOSA 1.0",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *input =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        llvm::ArrayRef<uint8_t> bytes(
            reinterpret_cast<const uint8_t *>(input->getBufferStart()),
            input->getBufferSize());
        return importTFLite(bytes, input->getBufferIdentifier(), context,
                            {/*outputTensor=*/outputTensor});
      },
      registerTFLiteImportDialects);
}
