//===- FixedPoint.cpp - gemmlowp fixed-point math of TFLite's softmax ----===//

#include "vmcu/Utils/FixedPoint.h"

#include "vmcu/Support/TargetConstants.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::vmcu;

namespace {
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int kInt32Bits = 31; // value bits of int32
constexpr int kInt8Bits = 8;

/// gemmlowp's constants of exp on [-1/4, 0) (a Taylor series around -1/8)
/// and of its barrel shifter: exp(-2^k) for k = -2..4, all Q0.31.
constexpr int32_t kExpConstantTerm = 1895147668;  // exp(-1/8)
constexpr int32_t kOneThird = 715827883;
constexpr int32_t kExpBarrel[] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
constexpr int kExpBarrelFirstExponent = -2;
} // namespace

int32_t fixedpoint::saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == kInt32Min && b == kInt32Min)
    return kInt32Max;
  int64_t ab = static_cast<int64_t>(a) * b;
  int64_t nudge = ab >= 0 ? (int64_t(1) << 30) : 1 - (int64_t(1) << 30);
  return static_cast<int32_t>((ab + nudge) / (int64_t(1) << kInt32Bits));
}

int32_t fixedpoint::roundingDivideByPOT(int32_t x, int exponent) {
  int32_t mask = static_cast<int32_t>((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t fixedpoint::saturatingShiftLeft(int32_t x, int exponent) {
  int32_t threshold = static_cast<int32_t>((int64_t(1) << (kInt32Bits - exponent)) - 1);
  if (x > threshold)
    return kInt32Max;
  if (x < -threshold)
    return kInt32Min;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

/// exp(a) for Q0.31 a in [-1/4, 0).
static int32_t expOnQuarterInterval(int32_t a) {
  using namespace fixedpoint;
  int32_t x = a + (1 << 28); // a + 1/8
  int32_t x2 = saturatingRoundingDoublingHighMul(x, x);
  int32_t x3 = saturatingRoundingDoublingHighMul(x2, x);
  int32_t x4 = saturatingRoundingDoublingHighMul(x2, x2);
  int32_t x4Over4 = roundingDivideByPOT(x4, 2);
  int32_t poly = roundingDivideByPOT(
      saturatingRoundingDoublingHighMul(x4Over4 + x3, kOneThird) + x2, 1);
  return kExpConstantTerm +
         saturatingRoundingDoublingHighMul(kExpConstantTerm, x + poly);
}

int32_t fixedpoint::expOnNegativeValues(int32_t a, int integerBits) {
  int fractionalBits = kInt32Bits - integerBits;
  int32_t oneQuarter = int32_t(1) << (fractionalBits - 2);
  int32_t aModQuarterMinusQuarter = (a & (oneQuarter - 1)) - oneQuarter;
  int32_t result = expOnQuarterInterval(
      saturatingShiftLeft(aModQuarterMinusQuarter, integerBits));
  int32_t remainder = aModQuarterMinusQuarter - a;
  for (int i = 0; i < static_cast<int>(std::size(kExpBarrel)); ++i) {
    int exponent = kExpBarrelFirstExponent + i;
    if (integerBits > exponent &&
        (remainder & (int32_t(1) << (fractionalBits + exponent))))
      result = saturatingRoundingDoublingHighMul(result, kExpBarrel[i]);
  }
  return a == 0 ? kInt32Max : result;
}

/// gemmlowp RoundingHalfSum(a, One) for Q0.31 a: (a + One + sign) / 2,
/// truncating.
static int32_t halfSumWithOne(int32_t a) {
  int64_t sum = static_cast<int64_t>(a) + kInt32Max;
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/// Newton-Raphson for 1 / (2 * halfDenominator) in Q2.29, from 48/17 - 32/17
/// * halfDenominator.
static int32_t reciprocalOfDoubled(int32_t halfDenominator) {
  using namespace fixedpoint;
  int32_t x = k48Over17 +
              saturatingRoundingDoublingHighMul(halfDenominator, kMinus32Over17);
  for (int i = 0; i < kNewtonRaphsonSteps; ++i) {
    int32_t halfDenominatorTimesX =
        saturatingRoundingDoublingHighMul(halfDenominator, x);
    int32_t oneMinus = kOneQ2 - halfDenominatorTimesX;
    x += saturatingShiftLeft(saturatingRoundingDoublingHighMul(x, oneMinus), 2);
  }
  return x;
}

int32_t fixedpoint::oneOverOnePlusX(int32_t a) {
  // Rescale<0>(ExactMulByPot<-1>(x)): Q2.29 halved, as Q0.31.
  return saturatingShiftLeft(reciprocalOfDoubled(halfSumWithOne(a)), 1);
}

int32_t fixedpoint::oneMinusXOverOnePlusX(int32_t a) {
  // Rescale<0>(x - 1): Q2.29 as Q0.31.
  return saturatingShiftLeft(reciprocalOfDoubled(halfSumWithOne(a)) - kOneQ2,
                             2);
}

int32_t fixedpoint::logistic(int32_t aQ4) {
  if (aQ4 == 0)
    return int32_t(1) << 30; // one half
  int32_t absolute = aQ4 > 0 ? aQ4 : -aQ4;
  int32_t ofPositive = oneOverOnePlusX(
      expOnNegativeValues(-absolute, kSigmoidInputIntegerBits));
  return aQ4 > 0 ? ofPositive : kInt32Max - ofPositive;
}

int32_t fixedpoint::tanh(int32_t aQ4) {
  if (aQ4 == 0)
    return 0;
  int32_t negative = aQ4 < 0 ? aQ4 : -aQ4;
  // ExactMulByPot<1>: the same raw value read with one more integer bit.
  int32_t ofNegative = oneMinusXOverOnePlusX(
      expOnNegativeValues(negative, kSigmoidInputIntegerBits + 1));
  return aQ4 < 0 ? -ofNegative : ofNegative;
}

fixedpoint::QuantizedMultiplier fixedpoint::quantizeMultiplier(double real) {
  QuantizedMultiplier q;
  if (real == 0.0)
    return q;
  int exponent = 0;
  double fraction = std::frexp(real, &exponent);
  int64_t fixed =
      std::llround(fraction * static_cast<double>(int64_t(1) << kInt32Bits));
  if (fixed == (int64_t(1) << kInt32Bits)) {
    fixed /= 2;
    ++exponent;
  }
  // TFLite flushes what a shift below -31 would shift out entirely.
  constexpr int kMinShift = -31;
  if (exponent < kMinShift)
    return q;
  q.multiplier = static_cast<int32_t>(fixed);
  q.shift = exponent;
  return q;
}

bool fixedpoint::leftShiftFitsInt32(int64_t maxMagnitude, int shift) {
  if (shift <= 0)
    return true;
  return shift < kInt32Bits && (maxMagnitude << shift) <= kInt32Max;
}

int32_t fixedpoint::multiplyByQuantizedMultiplier(int32_t x,
                                                  QuantizedMultiplier m) {
  int left = m.shift > 0 ? m.shift : 0, right = m.shift > 0 ? 0 : -m.shift;
  int32_t scaled = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return roundingDivideByPOT(
      saturatingRoundingDoublingHighMul(scaled, m.multiplier), right);
}

int64_t fixedpoint::tosaRescale(int64_t value, int32_t multiplier, int shift,
                                bool doubleRound, int32_t inputZp,
                                int32_t outputZp, int64_t min, int64_t max) {
  constexpr int kWideShift = 31;
  constexpr int64_t kDoubleRoundTerm = int64_t(1) << 30;
  int64_t v = value - inputZp;
  int64_t round = int64_t(1) << (shift - 1);
  if (doubleRound && shift > kWideShift)
    round += v >= 0 ? kDoubleRoundTerm : -kDoubleRoundTerm;
  // Arithmetic shift of the 64-bit sum, as LLVM's ashr.
  int64_t scaled = (v * multiplier + round) >> shift;
  auto truncated = static_cast<uint32_t>(scaled);
  auto result =
      static_cast<int32_t>(truncated + static_cast<uint32_t>(outputZp));
  return std::clamp<int64_t>(result, min, max);
}

std::optional<fixedpoint::SoftmaxParams>
fixedpoint::softmaxParams(double beta, double inputScale) {
  constexpr double maxRealMultiplier = (int64_t(1) << kInt32Bits) - 1.0;
  double real = std::min(
      beta * inputScale * (int64_t(1) << (kInt32Bits - kScaledDiffIntegerBits)),
      maxRealMultiplier);
  if (!(real > 1.0) || !std::isfinite(real))
    return std::nullopt;
  int exponent = 0;
  double fraction = std::frexp(real, &exponent);
  int64_t fixed = std::llround(fraction * static_cast<double>(int64_t(1) << kInt32Bits));
  if (fixed == (int64_t(1) << kInt32Bits)) {
    fixed /= 2;
    ++exponent;
  }
  SoftmaxParams p;
  p.multiplier = static_cast<int32_t>(fixed);
  p.leftShift = exponent;
  double radius = ((int64_t(1) << kScaledDiffIntegerBits) - 1) *
                  static_cast<double>(int64_t(1) << (kInt32Bits - kScaledDiffIntegerBits)) /
                  static_cast<double>(int64_t(1) << exponent);
  p.diffMin = -static_cast<int32_t>(std::floor(radius));
  return p;
}

int32_t fixedpoint::softmaxExp(int32_t d, const SoftmaxParams &p) {
  int32_t diff = -d;
  if (diff < p.diffMin)
    return 0;
  int32_t rescaled = saturatingRoundingDoublingHighMul(
      static_cast<int32_t>(static_cast<uint32_t>(diff) << p.leftShift),
      p.multiplier);
  return expOnNegativeValues(rescaled);
}

std::array<int32_t, fixedpoint::kInt8Differences>
fixedpoint::softmaxExpTable(const SoftmaxParams &p) {
  std::array<int32_t, kInt8Differences> table;
  for (int d = 0; d < kInt8Differences; ++d)
    table[d] = softmaxExp(d, p);
  return table;
}

std::vector<int8_t> fixedpoint::softmaxRow(const std::vector<int8_t> &row,
                                           const SoftmaxParams &p) {
  int32_t maxInRow = *std::max_element(row.begin(), row.end());
  int32_t sum = 0;
  for (int8_t v : row)
    sum += roundingDivideByPOT(softmaxExp(maxInRow - v, p),
                               kAccumulationIntegerBits);
  int headroomPlusOne = __builtin_clz(static_cast<uint32_t>(sum));
  int numBitsOverUnit = kAccumulationIntegerBits - headroomPlusOne;
  int32_t shiftedSumMinusOne = static_cast<int32_t>(
      (static_cast<uint32_t>(sum) << headroomPlusOne) - (uint32_t(1) << 31));
  int32_t scale = oneOverOnePlusX(shiftedSumMinusOne);
  std::vector<int8_t> out;
  for (int8_t v : row) {
    int32_t e = softmaxExp(maxInRow - v, p);
    int32_t unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(scale, e),
                                        numBitsOverUnit + kInt32Bits - kInt8Bits);
    out.push_back(
        static_cast<int8_t>(std::clamp(unsat + kInt8Min, kInt8Min, kInt8Max)));
  }
  return out;
}
