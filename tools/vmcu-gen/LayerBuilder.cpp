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

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::vmcu;
using namespace mlir::vmcu::gen;

namespace {
/// Target RMS of a requantised output, in int8 units.
constexpr double kTargetRms = 30.0;
/// The ReLU6-style clamp keeps [zp, zp + kRelu6Range]: 6.0 at scale 6/64.
constexpr int64_t kRelu6Range = 64;
/// Bias magnitude limit (|b| < 2^12) and output zero-point range.
constexpr int64_t kMaxBias = 4095;
constexpr int64_t kMaxOutputZp = 20;

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

SmallVector<int8_t> LayerBuilder::randomWeights(int64_t count) {
  SmallVector<int8_t> weights;
  weights.reserve(count);
  for (int64_t i = 0; i < count; ++i)
    weights.push_back(static_cast<int8_t>(rng.uniformInt(-127, 127)));
  return weights;
}

llvm::Expected<LayerBuilder::LayerParams> LayerBuilder::randomParams(
    llvm::StringRef what, int64_t count, int64_t channels,
    llvm::function_ref<int64_t(int64_t)> channelOf, const Stats &in) {
  LayerParams params;
  params.weights = randomWeights(count);
  SmallVector<int32_t> &bias = params.bias;
  SmallVector<double> sum(channels, 0.0), sumSq(channels, 0.0);
  for (auto [i, weight] : llvm::enumerate(params.weights)) {
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
    params.multipliers.push_back(*m);
    double scale = realScale(*m);
    meanSum += mean * scale;
    squareSum += (mean * mean + var) * scale * scale;
  }
  double mean = meanSum / channels;
  params.accOut =
      Stats{mean, std::sqrt(std::max(0.0, squareSum / channels - mean * mean))};
  return params;
}

Act LayerBuilder::requantize(Value acc, llvm::ArrayRef<Multiplier> multipliers,
                             const Stats &accOut, Activation act) {
  auto accType = cast<RankedTensorType>(acc.getType());
  auto outType = accType.clone(b.getI8Type());
  auto zp = static_cast<int32_t>(rng.uniformInt(-kMaxOutputZp, kMaxOutputZp));
  // Conv and matmul outputs are per channel, even with one channel.
  Value y = tosa.rescale(acc, outType, multipliers, 0, zp, /*perChannel=*/true);
  Stats stats = saturate(accOut, zp);
  if (act == Activation::None)
    return Act{y, zp, stats};
  int64_t hi = std::min<int64_t>(127, zp + kRelu6Range);
  y = tosa.clamp(y, zp, hi);
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
  Act x = in;
  x.value = tosa.sliceTail(in.value, ph->trim, pw->trim);
  return WindowInput{*ph, *pw, x};
}

llvm::Expected<Act> LayerBuilder::conv2d(llvm::StringRef what, const Act &in,
                                         int64_t cout, int64_t kernel,
                                         int64_t stride, Padding padding,
                                         Activation act) {
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  int64_t cin = in.getType().getShape()[3];
  int64_t fanIn = kernel * kernel * cin;
  llvm::Expected<LayerParams> params = randomParams(
      what, cout * fanIn, cout, [&](int64_t i) { return i / fanIn; }, in.stats);
  if (!params)
    return params.takeError();

  Value acc = tosa.conv2d(window->x.value, in.zp, {cout, kernel, kernel, cin},
                          params->weights, params->bias, window->h, window->w,
                          stride, stride);
  return requantize(acc, params->multipliers, params->accOut, act);
}

llvm::Expected<Act> LayerBuilder::depthwiseConv2d(llvm::StringRef what,
                                                  const Act &in, int64_t kernel,
                                                  int64_t stride,
                                                  Padding padding,
                                                  Activation act) {
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  int64_t c = in.getType().getShape()[3];
  llvm::Expected<LayerParams> params = randomParams(
      what, kernel * kernel * c, c, [&](int64_t i) { return i % c; }, in.stats);
  if (!params)
    return params.takeError();

  Value acc = tosa.depthwiseConv2d(
      window->x.value, in.zp, {kernel, kernel, c, 1}, params->weights,
      params->bias, window->h, window->w, stride, stride);
  return requantize(acc, params->multipliers, params->accOut, act);
}

llvm::Expected<Act> LayerBuilder::fullyConnected(llvm::StringRef what,
                                                 const Act &in, int64_t n) {
  int64_t k = in.getType().getShape()[2];
  llvm::Expected<LayerParams> params = randomParams(
      what, k * n, n, [&](int64_t i) { return i % n; }, in.stats);
  if (!params)
    return params.takeError();

  Value sum =
      tosa.fullyConnected(in.value, in.zp, n, params->weights, params->bias);
  return requantize(sum, params->multipliers, params->accOut, Activation::None);
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

  auto zp = static_cast<int32_t>(rng.uniformInt(-kMaxOutputZp, kMaxOutputZp));
  Value y =
      tosa.add(lhs.value, lhs.zp, *lhsM, rhs.value, rhs.zp, *rhsM,
               cast<RankedTensorType>(lhs.value.getType()), *outM, zp);
  return Act{y, zp, saturate(Stats{sumMean / outScale, sumStd / outScale}, zp)};
}

Act LayerBuilder::concatChannels(llvm::ArrayRef<Act> pieces) {
  SmallVector<Value> values;
  Stats widest = pieces.front().stats;
  for (const Act &piece : pieces) {
    values.push_back(piece.value);
    if (piece.stats.rms() > widest.rms())
      widest = piece.stats;
  }
  constexpr int32_t kChannelAxis = 3;
  return Act{tosa.concat(values, kChannelAxis), pieces.front().zp, widest};
}

Act LayerBuilder::resizeNearest(const Act &in, llvm::ArrayRef<int64_t> scale,
                                llvm::ArrayRef<int64_t> offset,
                                llvm::ArrayRef<int64_t> border) {
  return Act{tosa.resizeNearest(in.value, scale, offset, border), in.zp,
             in.stats};
}

llvm::Expected<Act> LayerBuilder::avgPool2d(llvm::StringRef what, const Act &in,
                                            int64_t kernel, int64_t stride,
                                            Padding padding) {
  llvm::Expected<WindowInput> window =
      windowInput(what, in, kernel, stride, padding);
  if (!window)
    return window.takeError();
  const DimPads *ph = &window->h, *pw = &window->w;
  Act x = window->x;
  Value y = tosa.avgPool2d(x.value, in.zp, in.zp, kernel, kernel, stride,
                           stride, *ph, *pw);
  // Averaging kernel^2 roughly independent values narrows the spread.
  return Act{
      y, in.zp,
      saturate(Stats{in.stats.mean, in.stats.std / static_cast<double>(kernel)},
               in.zp)};
}

Act LayerBuilder::globalAvgPool(const Act &in) {
  auto type = cast<RankedTensorType>(in.value.getType());
  int64_t rows = type.getDimSize(1), cols = type.getDimSize(2);
  DimPads whole{/*before=*/0, /*after=*/0, /*trim=*/0, /*out=*/1};
  Value y =
      tosa.avgPool2d(in.value, in.zp, in.zp, rows, cols, 1, 1, whole, whole);
  double pixels = static_cast<double>(rows * cols);
  return Act{
      y, in.zp,
      saturate(Stats{in.stats.mean, in.stats.std / std::sqrt(pixels)}, in.zp)};
}
