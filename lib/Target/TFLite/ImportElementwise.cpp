//===- ImportElementwise.cpp - binary ops, activations and softmax --------===//
//
// The Importer's elementwise operators, in TFLite Micro's int8 arithmetic:
// ADD and SUB (2^20 headroom), MUL (a per-channel constant as a 1x1
// depthwise), a one-element constant operand as a 256-entry table, the
// activations (RELU, RELU6, LEAKY_RELU, LOGISTIC, TANH, HARD_SWISH and an
// int8 QUANTIZE) as tables, and SOFTMAX.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Utils/FixedPoint.h"
#include "vmcu/Utils/Int8Activations.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::tflite;

namespace {
/// The int8 output quantisation TFLite Micro's SOFTMAX requires.
constexpr int32_t kSoftmaxOutputZeroPoint = -128;
constexpr float kSoftmaxOutputScale = 1.0f / 256;
} // namespace

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
  fp::BinaryOperands ops{lhsConst ? cq : xq,
                         lhsConst ? xq : cq,
                         {static_cast<float>(outScale), outZp},
                         (*value)[0],
                         lhsConst};
  fp::BinaryKind binary = kind == Builtin::Add   ? fp::BinaryKind::Add
                          : kind == Builtin::Sub ? fp::BinaryKind::Sub
                                                 : fp::BinaryKind::Mul;
  std::optional<fp::Int8Table> table =
      fp::binaryTable(binary, ops, static_cast<int32_t>(range->first),
                      static_cast<int32_t>(range->second));
  if (!table)
    return opError() << "has a rescale TFLite's int8 arithmetic rejects or "
                        "overflows (constant '"
                     << c.name << "', output scale " << outScale << ")";
  define(out,
         QuantValue{tosa.table(x->value, SmallVector<int8_t>(table->begin(),
                                                             table->end())),
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
  Value product =
      tosa.depthwiseConv2d(x.value, x.zp, {1, 1, channels, 1}, weights,
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
    std::optional<int64_t> count = boundedElements(c.shape, kMaxTensorElements);
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
/// TFLite Micro's int8 kernels compute them: both operands rescaled relative to
/// twice the larger input scale with 2^kAddInputShift of headroom, summed (or
/// subtracted), rescaled to the output. ADD forms the ratios in double, SUB in
/// float (CalculateOpDataAdd / CalculateOpDataSub).
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
/// as TFLite Micro computes it: MultiplyByQuantizedMultiplier((x - zx) * (y -
/// zy), s_x * s_y / s_out) + z_out, the multiplier formed in double.
LogicalResult Importer::importMul(Table op, ArrayRef<int32_t> in, int32_t out) {
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
  Value y =
      tosa.mul(lhs->value, lhs->zp, rhs->value, rhs->zp, full, *tm, outZp);
  return defineActivated(out, y, act, outScale, outZp);
}

LogicalResult Importer::importSoftmax(Table op, ArrayRef<int32_t> in,
                                      int32_t out) {
  FailureOr<QuantValue> x = inputActivation(in, 1, 1, "one operand");
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
  Value y = SoftmaxOp::create(builder, tosa.getLoc(), x->getType(), x->value,
                              builder.getI32IntegerAttr(params->multiplier),
                              builder.getI32IntegerAttr(params->leftShift),
                              builder.getI32IntegerAttr(params->diffMin),
                              IntegerAttr());
  define(out, QuantValue{y, outScale, outZp});
  return success();
}

FailureOr<fixedpoint::Int8Table>
Importer::sigmoidOrHardSwish(Builtin kind, double inScale, int32_t inZp,
                             double outScale, int32_t outZp) {
  namespace fp = fixedpoint;
  if (kind == Builtin::HardSwish) {
    std::optional<fp::Int8Table> table = fp::hardSwishTable(
        static_cast<float>(inScale), inZp, static_cast<float>(outScale), outZp);
    if (!table)
      return opError()
             << "output scale " << outScale
             << " is finer than the input scale / 128 (" << inScale / 128
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
  double fixedScale =
      logistic ? fp::kLogisticOutputScale : fp::kTanhOutputScale;
  int32_t fixedZp =
      logistic ? fp::kLogisticOutputZeroPoint : fp::kTanhOutputZeroPoint;
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
  FailureOr<QuantValue> x = inputActivation(in, 1, 1, "one operand");
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
      return opError() << "rescales by " << real << ", whose left shift ("
                       << m.shift << ") overflows TFLite's int32 arithmetic";
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
    auto inF = static_cast<float>(x->scale),
         outF = static_cast<float>(outScale);
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
