//===- TosaBuilder.cpp - Quantised int8 TOSA 1.0 layer builders -----------===//

#include "vmcu/Utils/TosaBuilder.h"

#include "vmcu/Support/TargetConstants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::vmcu;

namespace {
/// 2^31: the fixed-point one of a 32-bit TOSA multiplier.
constexpr double kMantissaOne = 2147483648.0;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

llvm::Expected<Multiplier> mlir::vmcu::quantizeScale(double scale) {
  if (!(scale > 0.0) || !std::isfinite(scale))
    return makeError(
        llvm::formatv("requantisation scale {0} is not positive", scale));
  int exponent = 0;
  double fraction = std::frexp(scale, &exponent);
  int64_t fixed = std::llround(fraction * kMantissaOne);
  if (fixed == (int64_t(1) << 31)) {
    fixed /= 2;
    ++exponent;
  }
  int64_t shift = 31 - exponent;
  if (shift < kTosaRescaleMinShift || shift > kTosaRescaleMaxShift)
    return makeError(llvm::formatv(
        "requantisation scale {0:e} needs shift {1}, outside TOSA's [{2}, {3}]",
        scale, shift, kTosaRescaleMinShift, kTosaRescaleMaxShift));
  return Multiplier{static_cast<int32_t>(fixed), static_cast<int8_t>(shift)};
}

llvm::Expected<Multiplier> mlir::vmcu::tfliteMultiplier(int32_t multiplier,
                                                         int shift) {
  int64_t tosaShift = 31 - static_cast<int64_t>(shift);
  if (tosaShift < kTosaRescaleMinShift || tosaShift > kTosaRescaleMaxShift)
    return makeError(llvm::formatv(
        "TFLite shift {0} is TOSA shift {1}, outside TOSA's [{2}, {3}]", shift,
        tosaShift, kTosaRescaleMinShift, kTosaRescaleMaxShift));
  return Multiplier{multiplier, static_cast<int8_t>(tosaShift)};
}

llvm::Expected<DimPads>
mlir::vmcu::computeWindow(llvm::StringRef what, llvm::StringRef dim, int64_t in,
                          int64_t kernel, int64_t stride, int64_t before,
                          int64_t after) {
  if (kernel < 1 || stride < 1 || before < 0 || after < 0)
    return makeError(llvm::formatv(
        "{0}: invalid window (kernel {1}, stride {2}, pads {3}/{4})", what,
        kernel, stride, before, after));
  int64_t numerator = in + before + after - kernel;
  if (numerator < 0)
    return makeError(
        llvm::formatv("{0}: kernel {1} is larger than the padded {2} {3}", what,
                      kernel, dim, in + before + after));
  DimPads pads{before, after, 0, 0};
  int64_t remainder = numerator % stride;
  if (remainder != 0) {
    // Unread trailing padding goes first, then unread trailing input.
    int64_t fromPad = std::min(remainder, pads.after);
    pads.after -= fromPad;
    pads.trim = remainder - fromPad;
    numerator -= remainder;
  }
  pads.out = numerator / stride + 1;
  return pads;
}

std::pair<int64_t, int64_t> mlir::vmcu::samePads(int64_t in, int64_t kernel,
                                                 int64_t stride) {
  int64_t out = (in + stride - 1) / stride;
  int64_t total = std::max<int64_t>((out - 1) * stride + kernel - in, 0);
  return {total / 2, total - total / 2};
}

llvm::Expected<DimPads> mlir::vmcu::computePads(llvm::StringRef what,
                                                llvm::StringRef dim, int64_t in,
                                                int64_t kernel, int64_t stride,
                                                Padding padding) {
  int64_t before = 0, after = 0;
  if (padding == Padding::Same) {
    std::tie(before, after) = samePads(in, kernel, stride);
  } else if (in < kernel) {
    return makeError(llvm::formatv(
        "{0}: kernel {1} is larger than the {2} {3} with padding=valid", what,
        kernel, dim, in));
  }
  return computeWindow(what, dim, in, kernel, stride, before, after);
}

Value TosaBuilder::constI8(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int8_t> data) {
  auto type = RankedTensorType::get(shape, b.getI8Type());
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, data));
}

Value TosaBuilder::constI32(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int32_t> data) {
  auto type = RankedTensorType::get(shape, b.getI32Type());
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, data));
}

Value TosaBuilder::zeroPoint(Type elementType, int64_t zp) {
  if (elementType.isInteger(8))
    return constI8({1}, {static_cast<int8_t>(zp)});
  return constI32({1}, {static_cast<int32_t>(zp)});
}

Value TosaBuilder::shape(llvm::ArrayRef<int64_t> values) {
  auto rank = static_cast<int64_t>(values.size());
  auto attr = DenseIntElementsAttr::get(
      RankedTensorType::get({rank}, b.getIndexType()), values);
  return tosa::ConstShapeOp::create(
      b, loc, tosa::shapeType::get(b.getContext(), rank), attr);
}

Value TosaBuilder::rescale(Value input, RankedTensorType outType,
                           llvm::ArrayRef<Multiplier> multipliers,
                           int32_t inputZp, int32_t outputZp, bool perChannel) {
  SmallVector<int32_t> mult;
  SmallVector<int8_t> shift;
  for (const Multiplier &m : multipliers) {
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }
  auto n = static_cast<int64_t>(multipliers.size());
  Value multValue = constI32({n}, mult);
  Value shiftValue = constI8({n}, shift);
  Type inElement = cast<ShapedType>(input.getType()).getElementType();
  Value inZp = zeroPoint(inElement, inputZp);
  Value outZp = zeroPoint(outType.getElementType(), outputZp);
  return tosa::RescaleOp::create(
      b, loc, outType, input, multValue, shiftValue, inZp, outZp,
      /*scale32=*/true, tosa::RoundingMode::DOUBLE_ROUND, perChannel,
      /*input_unsigned=*/false,
      /*output_unsigned=*/false);
}

Value TosaBuilder::clamp(Value input, int64_t lo, int64_t hi) {
  return tosa::ClampOp::create(b, loc, input.getType(), input,
                               b.getIntegerAttr(b.getI8Type(), lo),
                               b.getIntegerAttr(b.getI8Type(), hi));
}

Value TosaBuilder::reshape(Value input, llvm::ArrayRef<int64_t> newShape) {
  auto type = cast<RankedTensorType>(input.getType()).clone(newShape);
  return tosa::ReshapeOp::create(b, loc, type, input, shape(newShape));
}

Value TosaBuilder::slice(Value input, llvm::ArrayRef<int64_t> start,
                         llvm::ArrayRef<int64_t> size) {
  auto type = cast<RankedTensorType>(input.getType()).clone(size);
  // In this order: the IR must not depend on argument evaluation order.
  Value startValue = shape(start);
  Value sizeValue = shape(size);
  return tosa::SliceOp::create(b, loc, type, input, startValue, sizeValue);
}

Value TosaBuilder::resizeNearest(Value in, llvm::ArrayRef<int64_t> scale,
                                 llvm::ArrayRef<int64_t> offset,
                                 llvm::ArrayRef<int64_t> border) {
  auto type = cast<RankedTensorType>(in.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (int axis = 0; axis < 2; ++axis)
    shape[1 + axis] = ((shape[1 + axis] - 1) * scale[2 * axis] -
                       offset[axis] + border[axis]) /
                          scale[2 * axis + 1] +
                      1;
  // Each operand named first: argument order is unspecified.
  Value scaleShape = this->shape(scale);
  Value offsetShape = this->shape(offset);
  Value borderShape = this->shape(border);
  return tosa::ResizeOp::create(b, loc, type.clone(shape), in, scaleShape,
                                offsetShape, borderShape,
                                tosa::ResizeMode::NEAREST_NEIGHBOR);
}

Value TosaBuilder::concat(llvm::ArrayRef<Value> inputs, int32_t axis) {
  auto first = cast<RankedTensorType>(inputs.front().getType());
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (Value input : inputs)
    shape[axis] += cast<RankedTensorType>(input.getType()).getDimSize(axis);
  return tosa::ConcatOp::create(b, loc, first.clone(shape), inputs,
                                b.getI32IntegerAttr(axis));
}

Value TosaBuilder::sliceTail(Value in, int64_t trimH, int64_t trimW) {
  if (trimH == 0 && trimW == 0)
    return in;
  auto type = cast<RankedTensorType>(in.getType());
  SmallVector<int64_t> size(type.getShape());
  size[1] -= trimH;
  size[2] -= trimW;
  return slice(in, {0, 0, 0, 0}, size);
}

/// The batch of an NHWC tensor.
static int64_t batchOf(Value x) {
  return cast<RankedTensorType>(x.getType()).getDimSize(0);
}

Value TosaBuilder::conv2d(Value x, int32_t inputZp,
                          llvm::ArrayRef<int64_t> weightShape,
                          llvm::ArrayRef<int8_t> weights,
                          llvm::ArrayRef<int32_t> bias, const DimPads &h,
                          const DimPads &w, int64_t strideH, int64_t strideW,
                          int64_t dilationH, int64_t dilationW) {
  int64_t cout = weightShape[0];
  Value weight = constI8(weightShape, weights);
  Value biasValue = constI32({cout}, bias);
  auto accType = RankedTensorType::get({batchOf(x), h.out, w.out, cout},
                                       b.getI32Type());
  // Operands in order: argument evaluation order is unspecified.
  Value inZp = zeroPoint(b.getI8Type(), inputZp);
  Value weightZp = zeroPoint(b.getI8Type(), 0);
  return tosa::Conv2DOp::create(b, loc, accType, x, weight, biasValue, inZp,
                                weightZp,
                                {h.before, h.after, w.before, w.after},
                                {strideH, strideW}, {dilationH, dilationW},
                                b.getI32Type());
}

Value TosaBuilder::depthwiseConv2d(Value x, int32_t inputZp,
                                   llvm::ArrayRef<int64_t> weightShape,
                                   llvm::ArrayRef<int8_t> weights,
                                   llvm::ArrayRef<int32_t> bias,
                                   const DimPads &h, const DimPads &w,
                                   int64_t strideH, int64_t strideW,
                                   int64_t dilationH, int64_t dilationW) {
  int64_t c = weightShape[2] * weightShape[3];
  Value weight = constI8(weightShape, weights);
  Value biasValue = constI32({c}, bias);
  auto accType =
      RankedTensorType::get({batchOf(x), h.out, w.out, c}, b.getI32Type());
  Value inZp = zeroPoint(b.getI8Type(), inputZp);
  Value weightZp = zeroPoint(b.getI8Type(), 0);
  return tosa::DepthwiseConv2DOp::create(
      b, loc, accType, x, weight, biasValue, inZp, weightZp,
      {h.before, h.after, w.before, w.after}, {strideH, strideW},
      {dilationH, dilationW}, b.getI32Type());
}

Value TosaBuilder::fullyConnected(Value x, int32_t inputZp, int64_t n,
                                  llvm::ArrayRef<int8_t> weights,
                                  llvm::ArrayRef<int32_t> bias) {
  llvm::ArrayRef<int64_t> shape =
      cast<RankedTensorType>(x.getType()).getShape();
  int64_t m = shape[1], k = shape[2];
  Value weight = constI8({1, k, n}, weights);
  auto accType = RankedTensorType::get({1, m, n}, b.getI32Type());
  Value aZp = zeroPoint(b.getI8Type(), inputZp);
  Value bZp = zeroPoint(b.getI8Type(), 0);
  Value acc = tosa::MatMulOp::create(b, loc, accType, x, weight, aZp, bZp);
  Value biasValue = constI32({1, 1, n}, bias);
  return tosa::AddOp::create(b, loc, accType, acc, biasValue);
}

Value TosaBuilder::add(Value lhs, int32_t lhsZp, Multiplier lhsScale, Value rhs,
                       int32_t rhsZp, Multiplier rhsScale,
                       RankedTensorType outType, Multiplier outScale,
                       int32_t outZp, bool subtract) {
  auto widen = [&](Value v, int32_t zp, Multiplier scale) {
    auto type = cast<RankedTensorType>(v.getType()).clone(b.getI32Type());
    return rescale(v, type, {scale}, zp, 0, /*perChannel=*/false);
  };
  Value l = widen(lhs, lhsZp, lhsScale), r = widen(rhs, rhsZp, rhsScale);
  auto wideType = outType.clone(b.getI32Type());
  Value sum = subtract ? tosa::SubOp::create(b, loc, wideType, l, r).getResult()
                       : tosa::AddOp::create(b, loc, wideType, l, r).getResult();
  return rescale(sum, outType, {outScale}, 0, outZp, /*perChannel=*/false);
}

Value TosaBuilder::mul(Value lhs, int32_t lhsZp, Value rhs, int32_t rhsZp,
                       RankedTensorType outType, Multiplier outScale,
                       int32_t outZp) {
  // 2^30 * 2^-30: exactly the zero-point-free value.
  constexpr Multiplier kIdentity{1 << 30, 30};
  auto widen = [&](Value v, int32_t zp) {
    auto type = cast<RankedTensorType>(v.getType()).clone(b.getI32Type());
    return rescale(v, type, {kIdentity}, zp, 0, /*perChannel=*/false);
  };
  Value l = widen(lhs, lhsZp), r = widen(rhs, rhsZp);
  Value shift = constI8({1}, {0});
  Value product = tosa::MulOp::create(b, loc, outType.clone(b.getI32Type()),
                                      l, r, shift);
  return rescale(product, outType, {outScale}, 0, outZp, /*perChannel=*/false);
}

Value TosaBuilder::table(Value x, llvm::ArrayRef<int8_t> entries) {
  Value t = constI8({static_cast<int64_t>(entries.size())}, entries);
  return tosa::TableOp::create(b, loc, x.getType(), x, t);
}

Value TosaBuilder::maxPool2d(Value x, int64_t kernelH, int64_t kernelW,
                             int64_t strideH, int64_t strideW,
                             const DimPads &h, const DimPads &w) {
  int64_t c = cast<RankedTensorType>(x.getType()).getShape()[3];
  auto outType =
      RankedTensorType::get({batchOf(x), h.out, w.out, c}, b.getI8Type());
  return tosa::MaxPool2dOp::create(
      b, loc, outType, x, b.getDenseI64ArrayAttr({kernelH, kernelW}),
      b.getDenseI64ArrayAttr({strideH, strideW}),
      b.getDenseI64ArrayAttr({h.before, h.after, w.before, w.after}));
}

Value TosaBuilder::avgPool2d(Value x, int32_t inputZp, int32_t outputZp,
                             int64_t kernelH, int64_t kernelW, int64_t strideH,
                             int64_t strideW, const DimPads &h,
                             const DimPads &w) {
  int64_t c = cast<RankedTensorType>(x.getType()).getShape()[3];
  auto outType =
      RankedTensorType::get({batchOf(x), h.out, w.out, c}, b.getI8Type());
  Value inZp = zeroPoint(b.getI8Type(), inputZp);
  Value outZp = zeroPoint(b.getI8Type(), outputZp);
  return tosa::AvgPool2dOp::create(
      b, loc, outType, x, inZp, outZp, {kernelH, kernelW}, {strideH, strideW},
      {h.before, h.after, w.before, w.after}, b.getI32Type());
}
