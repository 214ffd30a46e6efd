//===- LayerBuilder.cpp - Quantised int8 TOSA 1.0 layers ------------------===//
//
// Weights are uniform int8 in [-127, 127] with zero point 0 and biases small
// int32. Each activation carries the mean and spread of `x - zp` (Stats);
// from them and the actual weights, every requantisation maps the
// accumulator's expected RMS to ~30 int8 units, so outputs use the int8
// range without saturating.
//
//===----------------------------------------------------------------------===//

#include "LayerBuilder.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::vmcu::gen;

namespace {
/// Target RMS of a requantised output, in int8 units.
constexpr double kTargetRms = 30.0;
/// The ReLU6-style clamp keeps [zp, zp + kRelu6Range]: 6.0 at scale 6/64.
constexpr int64_t kRelu6Range = 64;
/// Bias magnitude limit (|b| < 2^12) and output zero-point range.
constexpr int64_t kMaxBias = 4095;
constexpr int64_t kMaxOutputZp = 20;
/// The add's int32 headroom shift (TFLite-to-TOSA uses 20 for int8).
constexpr int kAddInputShift = 20;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

double normalPdf(double x) {
  return std::exp(-0.5 * x * x) * 0.3989422804014327;
}
double normalCdf(double x) { return 0.5 * std::erfc(-x * 0.7071067811865476); }

/// Statistics of clamp(v, lo, hi) for v ~ N(s.mean, s.std^2).
Stats clampStats(const Stats &s, double lo, double hi) {
  if (s.std < 1e-9)
    return Stats{std::clamp(s.mean, lo, hi), 0.0};
  double a = (lo - s.mean) / s.std, bb = (hi - s.mean) / s.std;
  double pa = normalCdf(a), pb = normalCdf(bb);
  double da = normalPdf(a), db = normalPdf(bb);
  double inside = pb - pa;
  double m1 = lo * pa + hi * (1 - pb) + s.mean * inside + s.std * (da - db);
  double m2 = lo * lo * pa + hi * hi * (1 - pb) +
              (s.mean * s.mean + s.std * s.std) * inside +
              2 * s.mean * s.std * (da - db) +
              s.std * s.std * (a * da - bb * db);
  return Stats{m1, std::sqrt(std::max(0.0, m2 - m1 * m1))};
}

/// A rescaled int8 output saturates to [-128, 127] before the zero point is
/// taken off again.
Stats saturate(const Stats &s, int32_t zp) {
  return clampStats(s, -128.0 - zp, 127.0 - zp);
}

/// The real value of a quantised multiplier.
double realScale(const Multiplier &m) {
  return std::ldexp(static_cast<double>(m.multiplier), -m.shift);
}
} // namespace

double Stats::rms() const { return std::sqrt(mean * mean + std * std); }

Stats mlir::vmcu::gen::uniformInputStats(int32_t zp) {
  // Uniform over [-128, 127]: mean -1/2, variance (256^2 - 1) / 12.
  return Stats{-0.5 - zp, std::sqrt((256.0 * 256.0 - 1.0) / 12.0)};
}

llvm::Expected<DimPads> mlir::vmcu::gen::computePads(llvm::StringRef what,
                                                     llvm::StringRef dim,
                                                     int64_t in, int64_t kernel,
                                                     int64_t stride,
                                                     Padding padding) {
  DimPads pads;
  if (padding == Padding::Same) {
    int64_t out = (in + stride - 1) / stride;
    int64_t total = std::max<int64_t>((out - 1) * stride + kernel - in, 0);
    pads.before = total / 2;
    pads.after = total - pads.before;
  } else if (in < kernel) {
    return makeError(llvm::formatv(
        "{0}: kernel {1} is larger than the {2} {3} with padding=valid", what,
        kernel, dim, in));
  }
  int64_t numerator = in + pads.before + pads.after - kernel;
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

llvm::Expected<Multiplier> mlir::vmcu::gen::quantizeScale(double scale) {
  if (!(scale > 0.0) || !std::isfinite(scale))
    return makeError(
        llvm::formatv("requantisation scale {0} is not positive", scale));
  int exponent = 0;
  double fraction = std::frexp(scale, &exponent);
  int64_t fixed = std::llround(fraction * 2147483648.0);
  if (fixed == (int64_t(1) << 31)) {
    fixed /= 2;
    ++exponent;
  }
  int64_t shift = 31 - exponent;
  if (shift < 2 || shift > 62)
    return makeError(llvm::formatv(
        "requantisation scale {0:e} needs shift {1}, outside TOSA's [2, 62]",
        scale, shift));
  return Multiplier{static_cast<int32_t>(fixed), static_cast<int8_t>(shift)};
}

Value LayerBuilder::constI8(llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<int8_t> data) {
  auto type = RankedTensorType::get(shape, b.getI8Type());
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, data));
}

Value LayerBuilder::constI32(llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int32_t> data) {
  auto type = RankedTensorType::get(shape, b.getI32Type());
  return tosa::ConstOp::create(b, loc, type,
                               DenseElementsAttr::get(type, data));
}

Act LayerBuilder::sliceTail(const Act &in, int64_t trimH, int64_t trimW) {
  if (trimH == 0 && trimW == 0)
    return in;
  RankedTensorType type = in.getType();
  SmallVector<int64_t> size(type.getShape());
  size[1] -= trimH;
  size[2] -= trimW;
  auto shapeOf = [&](llvm::ArrayRef<int64_t> values) -> Value {
    auto rank = static_cast<int64_t>(values.size());
    auto attr = DenseIntElementsAttr::get(
        RankedTensorType::get({rank}, b.getIndexType()), values);
    return tosa::ConstShapeOp::create(
        b, loc, tosa::shapeType::get(b.getContext(), rank), attr);
  };
  Value start = shapeOf({0, 0, 0, 0});
  Value sizeValue = shapeOf(size);
  Value sliced = tosa::SliceOp::create(b, loc, type.clone(size), in.value,
                                       start, sizeValue);
  return Act{sliced, in.zp, in.stats};
}

Value LayerBuilder::zeroPoint(Type elementType, int64_t zp) {
  if (elementType.isInteger(8))
    return constI8({1}, {static_cast<int8_t>(zp)});
  return constI32({1}, {static_cast<int32_t>(zp)});
}

Value LayerBuilder::rescale(Value input, RankedTensorType outType,
                            llvm::ArrayRef<Multiplier> multipliers,
                            int32_t inputZp, int32_t outputZp,
                            bool perChannel) {
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

SmallVector<int8_t> LayerBuilder::randomWeights(int64_t count) {
  SmallVector<int8_t> weights;
  weights.reserve(count);
  for (int64_t i = 0; i < count; ++i)
    weights.push_back(static_cast<int8_t>(rng.uniformInt(-127, 127)));
  return weights;
}

llvm::Error LayerBuilder::requantParams(
    llvm::StringRef what, llvm::ArrayRef<int8_t> w, int64_t channels,
    llvm::function_ref<int64_t(int64_t)> channelOf, const Stats &in,
    SmallVectorImpl<int32_t> &bias, SmallVectorImpl<Multiplier> &multipliers,
    Stats &accOut) {
  SmallVector<double> sum(channels, 0.0), sumSq(channels, 0.0);
  for (auto [i, weight] : llvm::enumerate(w)) {
    int64_t c = channelOf(static_cast<int64_t>(i));
    sum[c] += weight;
    sumSq[c] += static_cast<double>(weight) * weight;
  }
  // Bias: up to half the accumulator's spread, and |b| < 2^12.
  for (int64_t c = 0; c < channels; ++c) {
    double spread = in.std * std::sqrt(sumSq[c]);
    int64_t bound =
        std::clamp<int64_t>(static_cast<int64_t>(spread / 2), 1, kMaxBias);
    bias.push_back(static_cast<int32_t>(rng.uniformInt(-bound, bound)));
  }
  // Channel c's accumulator has mean mean*sum_c + b_c and variance
  // std^2 * sumSq_c; scale its RMS to kTargetRms.
  double meanSum = 0, squareSum = 0;
  for (int64_t c = 0; c < channels; ++c) {
    double mean = in.mean * sum[c] + bias[c];
    double var = in.std * in.std * sumSq[c];
    double rms = std::max(1.0, std::sqrt(mean * mean + var));
    llvm::Expected<Multiplier> m = quantizeScale(kTargetRms / rms);
    if (!m)
      return makeError(what + ": " + llvm::toString(m.takeError()));
    multipliers.push_back(*m);
    double scale = realScale(*m);
    meanSum += mean * scale;
    squareSum += (mean * mean + var) * scale * scale;
  }
  double mean = meanSum / channels;
  accOut =
      Stats{mean, std::sqrt(std::max(0.0, squareSum / channels - mean * mean))};
  return llvm::Error::success();
}

Act LayerBuilder::requantize(Value acc, llvm::ArrayRef<Multiplier> multipliers,
                             const Stats &accOut, Activation act) {
  auto accType = cast<RankedTensorType>(acc.getType());
  auto outType = accType.clone(b.getI8Type());
  auto zp = static_cast<int32_t>(rng.uniformInt(-kMaxOutputZp, kMaxOutputZp));
  // Conv and matmul outputs are per channel, even with one channel.
  Value y = rescale(acc, outType, multipliers, 0, zp, /*perChannel=*/true);
  Stats stats = saturate(accOut, zp);
  if (act == Activation::None)
    return Act{y, zp, stats};
  int64_t hi = std::min<int64_t>(127, zp + kRelu6Range);
  y = tosa::ClampOp::create(b, loc, outType, y,
                            b.getIntegerAttr(b.getI8Type(), zp),
                            b.getIntegerAttr(b.getI8Type(), hi));
  return Act{y, zp, clampStats(stats, 0.0, static_cast<double>(hi - zp))};
}

llvm::Expected<LayerBuilder::WindowInput>
LayerBuilder::windowInput(llvm::StringRef what, const Act &in, int64_t kernel,
                          int64_t stride, Padding padding) {
  llvm::ArrayRef<int64_t> shape = in.getType().getShape();
  llvm::Expected<DimPads> ph =
      computePads(what, "height", shape[1], kernel, stride, padding);
  if (!ph)
    return ph.takeError();
  llvm::Expected<DimPads> pw =
      computePads(what, "width", shape[2], kernel, stride, padding);
  if (!pw)
    return pw.takeError();
  // TOSA 1.0 expresses the unread tail of a strided window as a slice.
  return WindowInput{*ph, *pw, sliceTail(in, ph->trim, pw->trim)};
}

llvm::Expected<Act> LayerBuilder::conv2d(llvm::StringRef what, const Act &in,
                                         int64_t cout, int64_t kernel,
                                         int64_t stride, Padding padding,
                                         Activation act) {
  llvm::ArrayRef<int64_t> shape = in.getType().getShape();
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  const DimPads *ph = &window->h, *pw = &window->w;
  Act x = window->x;
  int64_t cin = shape[3];
  SmallVector<int8_t> weights = randomWeights(cout * kernel * kernel * cin);
  SmallVector<int32_t> bias;
  SmallVector<Multiplier> multipliers;
  int64_t fanIn = kernel * kernel * cin;
  Stats accOut;
  if (llvm::Error err = requantParams(
          what, weights, cout, [&](int64_t i) { return i / fanIn; }, in.stats,
          bias, multipliers, accOut))
    return std::move(err);

  Value weight = constI8({cout, kernel, kernel, cin}, weights);
  Value biasValue = constI32({cout}, bias);
  Value inZp = zeroPoint(b.getI8Type(), in.zp);
  Value weightZp = zeroPoint(b.getI8Type(), 0);
  auto accType =
      RankedTensorType::get({1, ph->out, pw->out, cout}, b.getI32Type());
  Value acc = tosa::Conv2DOp::create(
      b, loc, accType, x.value, weight, biasValue, inZp, weightZp,
      {ph->before, ph->after, pw->before, pw->after}, {stride, stride}, {1, 1},
      b.getI32Type());
  return requantize(acc, multipliers, accOut, act);
}

llvm::Expected<Act> LayerBuilder::depthwiseConv2d(llvm::StringRef what,
                                                  const Act &in, int64_t kernel,
                                                  int64_t stride,
                                                  Padding padding,
                                                  Activation act) {
  llvm::ArrayRef<int64_t> shape = in.getType().getShape();
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  const DimPads *ph = &window->h, *pw = &window->w;
  Act x = window->x;
  int64_t c = shape[3];
  SmallVector<int8_t> weights = randomWeights(kernel * kernel * c);
  SmallVector<int32_t> bias;
  SmallVector<Multiplier> multipliers;
  Stats accOut;
  if (llvm::Error err = requantParams(
          what, weights, c, [&](int64_t i) { return i % c; }, in.stats, bias,
          multipliers, accOut))
    return std::move(err);

  Value weight = constI8({kernel, kernel, c, 1}, weights);
  Value biasValue = constI32({c}, bias);
  Value inZp = zeroPoint(b.getI8Type(), in.zp);
  Value weightZp = zeroPoint(b.getI8Type(), 0);
  auto accType =
      RankedTensorType::get({1, ph->out, pw->out, c}, b.getI32Type());
  Value acc = tosa::DepthwiseConv2DOp::create(
      b, loc, accType, x.value, weight, biasValue, inZp, weightZp,
      {ph->before, ph->after, pw->before, pw->after}, {stride, stride}, {1, 1},
      b.getI32Type());
  return requantize(acc, multipliers, accOut, act);
}

llvm::Expected<Act> LayerBuilder::fullyConnected(llvm::StringRef what,
                                                 const Act &in, int64_t n) {
  llvm::ArrayRef<int64_t> shape = in.getType().getShape();
  int64_t m = shape[1], k = shape[2];
  SmallVector<int8_t> weights = randomWeights(k * n);
  SmallVector<int32_t> bias;
  SmallVector<Multiplier> multipliers;
  Stats accOut;
  if (llvm::Error err = requantParams(
          what, weights, n, [&](int64_t i) { return i % n; }, in.stats, bias,
          multipliers, accOut))
    return std::move(err);

  Value weight = constI8({1, k, n}, weights);
  Value aZp = zeroPoint(b.getI8Type(), in.zp);
  Value bZp = zeroPoint(b.getI8Type(), 0);
  auto accType = RankedTensorType::get({1, m, n}, b.getI32Type());
  Value acc =
      tosa::MatMulOp::create(b, loc, accType, in.value, weight, aZp, bZp);
  Value biasValue = constI32({1, 1, n}, bias);
  Value sum = tosa::AddOp::create(b, loc, accType, acc, biasValue);
  return requantize(sum, multipliers, accOut, Activation::None);
}

llvm::Expected<Act> LayerBuilder::add(llvm::StringRef what, const Act &lhs,
                                      const Act &rhs) {
  if (lhs.getType() != rhs.getType())
    return makeError(llvm::formatv("{0}: operand types {1} and {2} differ",
                                   what, lhs.getType(), rhs.getType()));
  // Real scales: the operands' contributions to the sum have a random
  // ratio in [1/2, 2), and the output scale brings the sum's RMS to ~30.
  double ratio = rng.uniformReal(0.5, 2.0);
  double lhsScale = 1.0 / std::max(1.0, lhs.stats.rms());
  double rhsScale = ratio / std::max(1.0, rhs.stats.rms());
  double sumMean = lhs.stats.mean * lhsScale + rhs.stats.mean * rhsScale;
  double sumStd =
      std::hypot(lhs.stats.std * lhsScale, rhs.stats.std * rhsScale);
  double outScale = std::hypot(sumMean, sumStd) / kTargetRms;
  double maxScale2x = 2.0 * std::max(lhsScale, rhsScale);
  double headroom = static_cast<double>(int64_t(1) << kAddInputShift);
  llvm::Expected<Multiplier> lhsM =
      quantizeScale(lhsScale / maxScale2x * headroom);
  llvm::Expected<Multiplier> rhsM =
      quantizeScale(rhsScale / maxScale2x * headroom);
  llvm::Expected<Multiplier> outM =
      quantizeScale(maxScale2x / (outScale * headroom));
  if (!lhsM || !rhsM || !outM)
    return makeError(
        what + ": " +
        llvm::toString(llvm::joinErrors(
            lhsM.takeError(),
            llvm::joinErrors(rhsM.takeError(), outM.takeError()))));

  auto wideType = lhs.getType().clone(b.getI32Type());
  Value l =
      rescale(lhs.value, wideType, {*lhsM}, lhs.zp, 0, /*perChannel=*/false);
  Value r =
      rescale(rhs.value, wideType, {*rhsM}, rhs.zp, 0, /*perChannel=*/false);
  Value sum = tosa::AddOp::create(b, loc, wideType, l, r);
  auto zp = static_cast<int32_t>(rng.uniformInt(-kMaxOutputZp, kMaxOutputZp));
  Value y = rescale(sum, lhs.getType(), {*outM}, 0, zp, /*perChannel=*/false);
  return Act{y, zp, saturate(Stats{sumMean / outScale, sumStd / outScale}, zp)};
}

llvm::Expected<Act> LayerBuilder::avgPool2d(llvm::StringRef what, const Act &in,
                                            int64_t kernel, int64_t stride,
                                            Padding padding) {
  llvm::ArrayRef<int64_t> shape = in.getType().getShape();
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  const DimPads *ph = &window->h, *pw = &window->w;
  Act x = window->x;
  auto outType =
      RankedTensorType::get({1, ph->out, pw->out, shape[3]}, b.getI8Type());
  Value inZp = zeroPoint(b.getI8Type(), in.zp);
  Value outZp = zeroPoint(b.getI8Type(), in.zp);
  Value y = tosa::AvgPool2dOp::create(
      b, loc, outType, x.value, inZp, outZp, {kernel, kernel}, {stride, stride},
      {ph->before, ph->after, pw->before, pw->after}, b.getI32Type());
  // Averaging kernel^2 roughly independent values narrows the spread.
  return Act{
      y, in.zp,
      saturate(Stats{in.stats.mean, in.stats.std / static_cast<double>(kernel)},
               in.zp)};
}
