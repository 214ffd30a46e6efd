//===- Int8Activations.cpp - TFLite Micro's int8 activations as tables ----===//

#include "vmcu/Utils/Int8Activations.h"

#include "vmcu/Support/TargetConstants.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::vmcu;
using namespace mlir::vmcu::fixedpoint;

namespace {
constexpr int32_t kInt16Min = std::numeric_limits<int16_t>::min();
constexpr int32_t kInt16Max = std::numeric_limits<int16_t>::max();
constexpr int kInt32Bits = 31; // value bits of int32
constexpr int kInt16Bits = 15; // value bits of int16
/// Bits of the int8 outputs below the binary point: LOGISTIC's Q0.8 and
/// TANH's Q0.7 (TFLM's kOutputIntegerBits = 8 and kOutputScale = 7).
constexpr int kLogisticOutputShift = kInt32Bits - 8;
constexpr int kTanhOutputShift = kInt32Bits - 7;
/// HardSwishPrepare: the input on a 2^7 finer scale, and the scale on which
/// the real 3.0 is 32768.
constexpr float kHiresInputFactor = 1.0f / 128.0f;
constexpr int kHiresInputShift = 7;
constexpr float kReluishScale = 3.0f / 32768.0f;

int8_t clampInt8(int32_t v) {
  return static_cast<int8_t>(std::clamp<int32_t>(v, kInt8Min, kInt8Max));
}

// gemmlowp's and TFLite's int16 fixed-point helpers used by HardSwish.
int16_t saturatingRoundingDoublingHighMul16(int16_t a, int16_t b) {
  if (a == kInt16Min && b == kInt16Min)
    return kInt16Max;
  int32_t ab = static_cast<int32_t>(a) * b;
  int32_t nudge = ab >= 0 ? (1 << 14) : 1 - (1 << 14);
  return static_cast<int16_t>((ab + nudge) / (1 << kInt16Bits));
}
int16_t saturatingDoublingHighMul16(int16_t a, int16_t b) {
  if (a == kInt16Min && b == kInt16Min)
    return kInt16Max;
  return static_cast<int16_t>(static_cast<int32_t>(a) * b / (1 << kInt16Bits));
}
int16_t saturatingShiftLeft16(int16_t a, int offset) {
  int64_t shifted = static_cast<int64_t>(a) * (int64_t(1) << offset);
  return static_cast<int16_t>(std::clamp<int64_t>(shifted, kInt16Min, kInt16Max));
}
/// gemmlowp RoundingDivideByPOT on int16 (its mask is an int16 too).
int16_t roundingDivideByPOT16(int16_t x, int exponent) {
  auto mask = static_cast<int16_t>((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int16_t>((x >> exponent) + (remainder > threshold ? 1 : 0));
}
/// TFLite's DownScaleInt32ToInt16Multiplier.
int16_t downScaleToInt16(int32_t multiplier) {
  constexpr int32_t kRoundingOffset = 1 << kInt16Bits;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRoundingOffset)
    return kInt16Max;
  return static_cast<int16_t>((multiplier + kRoundingOffset) >> (kInt16Bits + 1));
}

} // namespace

std::optional<SigmoidInput> fixedpoint::sigmoidInput(double scale,
                                                     int32_t zeroPoint) {
  double real =
      scale * static_cast<double>(int64_t(1) << (kInt32Bits - kSigmoidInputIntegerBits));
  if (!(real > 0) || !std::isfinite(real))
    return std::nullopt;
  SigmoidInput in;
  double fraction = std::frexp(real, &in.leftShift);
  double fixed = std::round(fraction * static_cast<double>(int64_t(1) << kInt32Bits));
  // TFLM casts the rounded fraction to int32 and shifts 1 left by the
  // exponent: both must fit.
  if (fixed >= static_cast<double>(int64_t(1) << kInt32Bits) ||
      in.leftShift < 0 || in.leftShift > kInt32Bits)
    return std::nullopt;
  in.zeroPoint = zeroPoint;
  in.multiplier = static_cast<int32_t>(fixed);
  // CalculateInputRadius: the largest |d| whose rescale stays below 2^4.
  double maxRescaled = ((1 << kSigmoidInputIntegerBits) - 1) *
                       static_cast<double>(int64_t(1) << (kInt32Bits - kSigmoidInputIntegerBits)) /
                       static_cast<double>(int64_t(1) << in.leftShift);
  in.radius = static_cast<int32_t>(std::floor(maxRescaled));
  return in;
}

/// TFLM's Logistic / Tanh loop: -128 and 127 beyond the radius, else `f` of
/// the Q4.27 input in Q0.31, rescaled by 2^-outputShift, plus `outputZp`.
static Int8Table sigmoidTable(const SigmoidInput &in, int32_t (*f)(int32_t),
                              int outputShift, int32_t outputZp) {
  Int8Table table;
  for (int32_t v = kInt8Min; v <= kInt8Max; ++v) {
    int32_t d = v - in.zeroPoint;
    int32_t out;
    if (d <= -in.radius)
      out = kInt8Min;
    else if (d >= in.radius)
      out = kInt8Max;
    else
      out = roundingDivideByPOT(
                f(multiplyByQuantizedMultiplier(d, {in.multiplier, in.leftShift})),
                outputShift) +
            outputZp;
    table[v - kInt8Min] = clampInt8(out);
  }
  return table;
}

Int8Table fixedpoint::logisticTable(const SigmoidInput &in) {
  return sigmoidTable(in, fixedpoint::logistic, kLogisticOutputShift,
                      kLogisticOutputZeroPoint);
}

Int8Table fixedpoint::tanhTable(const SigmoidInput &in) {
  return sigmoidTable(in, fixedpoint::tanh, kTanhOutputShift,
                      kTanhOutputZeroPoint);
}

namespace {
/// HardSwishPrepare's parameters.
struct HardSwishParams {
  int16_t outputMultiplier;
  int outputShift;
  int16_t reluishMultiplier;
  int reluishShift;
};

/// reference_ops::HardSwish on one int8 value.
int8_t hardSwish(const HardSwishParams &p, int32_t inZp, int32_t outZp,
                 int32_t v) {
  auto hires = static_cast<int16_t>((v - inZp) * (1 << kHiresInputShift));
  int16_t preshiftScaled =
      saturatingRoundingDoublingHighMul16(hires, p.outputMultiplier);
  // The input rescaled so that 3.0 is 2^15, saturating: in [-1, 1].
  int16_t reluish = hires;
  if (p.reluishShift > 0)
    reluish = saturatingShiftLeft16(reluish, p.reluishShift - 1);
  reluish = saturatingRoundingDoublingHighMul16(reluish, p.reluishMultiplier);
  if (p.reluishShift > 0)
    reluish = saturatingShiftLeft16(reluish, 1);
  if (p.reluishShift < 0)
    reluish = roundingDivideByPOT16(reluish, -p.reluishShift);
  // ... and mapped to [0, 1].
  reluish = static_cast<int16_t>((reluish + (1 << kInt16Bits)) >> 1);
  int16_t preshiftOutput = saturatingDoublingHighMul16(reluish, preshiftScaled);
  int16_t out = roundingDivideByPOT16(preshiftOutput, -p.outputShift);
  return clampInt8(out + outZp);
}
} // namespace

std::optional<Int8Table> fixedpoint::hardSwishTable(float inScale,
                                                    int32_t inZeroPoint,
                                                    float outScale,
                                                    int32_t outZeroPoint) {
  float hiresInputScale = kHiresInputFactor * inScale;
  QuantizedMultiplier output =
      quantizeMultiplier(static_cast<double>(hiresInputScale / outScale));
  QuantizedMultiplier reluish =
      quantizeMultiplier(static_cast<double>(hiresInputScale / kReluishScale));
  if (output.shift > 0)
    return std::nullopt;
  HardSwishParams p{downScaleToInt16(output.multiplier), output.shift,
                    downScaleToInt16(reluish.multiplier), reluish.shift};
  Int8Table table;
  for (int32_t v = kInt8Min; v <= kInt8Max; ++v)
    table[v - kInt8Min] = hardSwish(p, inZeroPoint, outZeroPoint, v);
  return table;
}

namespace {
/// The int32 headroom TFLM's int8 ADD and SUB shift both operands left by
/// (left_shift).
constexpr int kAddSubLeftShift = 20;
/// |(a - za) * (b - zb)| of two int8 values.
constexpr int64_t kMaxInt8Product = 255 * 255;

/// QuantizeMultiplierSmallerThanOneExp: fails unless 0 < real < 1.
std::optional<QuantizedMultiplier> smallerThanOne(double real) {
  if (!(real > 0.0) || !(real < 1.0))
    return std::nullopt;
  QuantizedMultiplier m = quantizeMultiplier(real);
  if (m.shift > 0)
    return std::nullopt;
  return m;
}

/// ADD / SUB: both operands rescaled to twice the larger scale with 2^20 of
/// headroom, summed (or subtracted), rescaled to the output. ADD forms the
/// ratios in double, SUB in float (CalculateOpDataAdd / CalculateOpDataSub).
std::optional<Int8Table> addSubTable(bool subtract, const BinaryOperands &ops,
                                     int32_t lo, int32_t hi) {
  double r1, r2, ro;
  if (subtract) {
    const float twiceMax = 2 * std::max(ops.lhs.scale, ops.rhs.scale);
    r1 = static_cast<double>(ops.lhs.scale / twiceMax);
    r2 = static_cast<double>(ops.rhs.scale / twiceMax);
    ro = static_cast<double>(
        twiceMax / static_cast<float>((1 << kAddSubLeftShift) * ops.out.scale));
  } else {
    double twiceMax =
        2 * static_cast<double>(std::max(ops.lhs.scale, ops.rhs.scale));
    r1 = static_cast<double>(ops.lhs.scale) / twiceMax;
    r2 = static_cast<double>(ops.rhs.scale) / twiceMax;
    ro = twiceMax / ((1 << kAddSubLeftShift) * static_cast<double>(ops.out.scale));
  }
  std::optional<QuantizedMultiplier> m1 = smallerThanOne(r1),
                                     m2 = smallerThanOne(r2),
                                     mo = smallerThanOne(ro);
  if (!m1 || !m2 || !mo)
    return std::nullopt;
  Int8Table table;
  for (int32_t v = kInt8Min; v <= kInt8Max; ++v) {
    int32_t a = ops.constantIsLhs ? ops.constant : v;
    int32_t b = ops.constantIsLhs ? v : ops.constant;
    int32_t sa = multiplyByQuantizedMultiplier(
        (a - ops.lhs.zeroPoint) * (1 << kAddSubLeftShift), *m1);
    int32_t sb = multiplyByQuantizedMultiplier(
        (b - ops.rhs.zeroPoint) * (1 << kAddSubLeftShift), *m2);
    int32_t raw = multiplyByQuantizedMultiplier(subtract ? sa - sb : sa + sb,
                                                *mo) +
                  ops.out.zeroPoint;
    table[v - kInt8Min] = static_cast<int8_t>(std::clamp(raw, lo, hi));
  }
  return table;
}

/// MUL: the product of the offset operands, rescaled by s1 * s2 / so in
/// double (CalculateOpDataMul; the shift may be a left shift).
std::optional<Int8Table> mulTable(const BinaryOperands &ops, int32_t lo,
                                  int32_t hi) {
  QuantizedMultiplier m = quantizeMultiplier(
      static_cast<double>(ops.lhs.scale) * static_cast<double>(ops.rhs.scale) /
      static_cast<double>(ops.out.scale));
  // TFLM shifts the product left in int32 first.
  if (!leftShiftFitsInt32(kMaxInt8Product, m.shift))
    return std::nullopt;
  Int8Table table;
  for (int32_t v = kInt8Min; v <= kInt8Max; ++v) {
    int32_t a = ops.constantIsLhs ? ops.constant : v;
    int32_t b = ops.constantIsLhs ? v : ops.constant;
    int32_t product = (a - ops.lhs.zeroPoint) * (b - ops.rhs.zeroPoint);
    int32_t raw = ops.out.zeroPoint + multiplyByQuantizedMultiplier(product, m);
    table[v - kInt8Min] = static_cast<int8_t>(std::clamp(raw, lo, hi));
  }
  return table;
}
} // namespace

std::optional<Int8Table> fixedpoint::binaryTable(BinaryKind kind,
                                                 const BinaryOperands &ops,
                                                 int32_t lo, int32_t hi) {
  if (kind == BinaryKind::Mul)
    return mulTable(ops, lo, hi);
  return addSubTable(kind == BinaryKind::Sub, ops, lo, hi);
}
