//===- FixedPoint.h - gemmlowp fixed-point math of TFLite's softmax -*- C++ -*-===//
//
// The int32 fixed-point arithmetic TFLite's integer kernels take from
// gemmlowp (fixedpoint.h) and tensorflow/lite/kernels/internal/common.h, as
// plain host functions. The compiler tabulates exp with them at compile time
// and the unit tests use them as the reference of the emitted reciprocal.
// Raw values are int32; a Qm.n value has m integer bits.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_UTILS_FIXEDPOINT_H
#define VMCU_UTILS_FIXEDPOINT_H

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::vmcu::fixedpoint {

/// Integer bits of the rescaled input difference (TFLite's
/// kScaledDiffIntegerBits) and of the sum of exponentials
/// (kAccumulationIntegerBits), reference_ops::Softmax.
constexpr int kScaledDiffIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;
/// Differences of two int8 values: 0, -1, ..., -255.
constexpr int kInt8Differences = 256;

/// gemmlowp's one_over_one_plus_x_for_x_in_0_1: Newton-Raphson on the half
/// denominator d, from 48/17 - 32/17 * d, in Q2.29 (whose 1 is kOneQ2).
constexpr int32_t k48Over17 = 1515870810;
constexpr int32_t kMinus32Over17 = -1010580540;
constexpr int kNewtonRaphsonSteps = 3;
constexpr int32_t kOneQ2 = 1 << 29;

/// gemmlowp SaturatingRoundingDoublingHighMul: round(a * b / 2^31).
int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b);
/// gemmlowp RoundingDivideByPOT: x / 2^exponent, rounding half away from 0.
int32_t roundingDivideByPOT(int32_t x, int exponent);
/// gemmlowp SaturatingRoundingMultiplyByPOT for exponent > 0.
int32_t saturatingShiftLeft(int32_t x, int exponent);
/// gemmlowp exp_on_negative_values for a value a <= 0 with `integerBits`
/// integer bits (at most kScaledDiffIntegerBits, so no clamp at -32), as
/// Q0.31.
int32_t expOnNegativeValues(int32_t a,
                            int integerBits = kScaledDiffIntegerBits);
/// gemmlowp one_over_one_plus_x_for_x_in_0_1 for Q0.31 a in [0, 1).
int32_t oneOverOnePlusX(int32_t a);
/// gemmlowp one_minus_x_over_one_plus_x_for_x_in_0_1 for Q0.31 a in [0, 1).
int32_t oneMinusXOverOnePlusX(int32_t a);
/// Integer bits of the int8 LOGISTIC and TANH input (TFLM's
/// kInputIntegerBits).
constexpr int kSigmoidInputIntegerBits = 4;
/// gemmlowp logistic and tanh of a Q4.27 value, as Q0.31.
int32_t logistic(int32_t aQ4);
int32_t tanh(int32_t aQ4);

/// TFLite's QuantizeMultiplier: real ~ multiplier * 2^(shift - 31), with
/// multiplier in [2^30, 2^31) (0 for a real of 0 or below 2^-31).
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};
QuantizedMultiplier quantizeMultiplier(double real);
/// TFLite's MultiplyByQuantizedMultiplier: x * 2^max(shift, 0), then
/// SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT by
/// max(-shift, 0).
int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m);
/// TOSA 1.0's RESCALE of one value, as `vmcu.requantize` computes it:
/// apply_scale_32 of `value - inputZp` in 64 bits (rounding term
/// 2^(shift - 1), plus 2^30 with double rounding and shift > 31, negated
/// for a negative value), truncated to 32 bits, plus `outputZp`
/// (wrapping), clamped to [min, max].
int64_t tosaRescale(int64_t value, int32_t multiplier, int shift,
                    bool doubleRound, int32_t inputZp, int32_t outputZp,
                    int64_t min, int64_t max);
/// True when values of magnitude up to `maxMagnitude` survive the int32
/// left shift by max(shift, 0) that MultiplyByQuantizedMultiplier starts
/// with (TFLite wraps there).
bool leftShiftFitsInt32(int64_t maxMagnitude, int shift);

/// What TFLM's SoftmaxPrepare derives for int8 input: the Q5.26 rescale of
/// an input difference (multiplier, left shift) and the smallest difference
/// that contributes (PreprocessSoftmaxScaling, CalculateInputRadius).
struct SoftmaxParams {
  int32_t multiplier = 0;
  int32_t leftShift = 0;
  int32_t diffMin = 0;
};
/// Fails when beta * input scale is too small for a left shift (TFLite
/// checks the same with QuantizeMultiplierGreaterThanOne).
std::optional<SoftmaxParams> softmaxParams(double beta, double inputScale);

/// exp of the input difference -d (d in [0, 255]) as Q0.31, or 0 below
/// diffMin (such an element adds nothing and outputs -128).
int32_t softmaxExp(int32_t d, const SoftmaxParams &params);
/// The table of softmaxExp over every int8 difference.
std::array<int32_t, kInt8Differences> softmaxExpTable(const SoftmaxParams &p);

/// reference_ops::Softmax on one row of int8 values, int8 out (output scale
/// 1/256, zero point -128).
std::vector<int8_t> softmaxRow(const std::vector<int8_t> &row,
                               const SoftmaxParams &params);

} // namespace mlir::vmcu::fixedpoint

#endif // VMCU_UTILS_FIXEDPOINT_H
