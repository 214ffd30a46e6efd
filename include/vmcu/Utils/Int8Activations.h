//===- Int8Activations.h - TFLite Micro's int8 elementwise ops as tables -*- C++ -*-===//
//
// LOGISTIC, TANH and HARD_SWISH as TFLite Micro computes them on int8
// (reference_integer_ops::Logistic and Tanh, reference_ops::HardSwish, with
// the parameters their Prepare functions derive), and ADD, SUB and MUL with
// a one-element constant operand. An int8 -> int8 function
// has 256 values: the compiler tabulates them here, at compile time, and the
// model runs the table.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_UTILS_INT8ACTIVATIONS_H
#define VMCU_UTILS_INT8ACTIVATIONS_H

#include "vmcu/Utils/FixedPoint.h"

#include <array>
#include <cstdint>
#include <optional>

namespace mlir::vmcu::fixedpoint {

/// f(v) for v = -128..127, at index v + 128.
constexpr int kInt8Values = 256;
using Int8Table = std::array<int8_t, kInt8Values>;

/// The output quantisation TFLite's int8 kernels compute in: LOGISTIC's
/// output is Q0.8 biased by -128, TANH's Q0.7.
constexpr double kLogisticOutputScale = 1.0 / 256;
constexpr int32_t kLogisticOutputZeroPoint = -128;
constexpr double kTanhOutputScale = 1.0 / 128;
constexpr int32_t kTanhOutputZeroPoint = 0;

/// What TFLM's CalculateArithmeticOpData derives for an int8 LOGISTIC or
/// TANH input: the Q4.27 rescale of `v - zeroPoint` and the radius beyond
/// which the output saturates. Empty where TFLite's int32 arithmetic has no
/// valid multiplier for `scale`.
struct SigmoidInput {
  int32_t zeroPoint = 0;
  int32_t multiplier = 0;
  int leftShift = 0;
  int32_t radius = 0;
};
std::optional<SigmoidInput> sigmoidInput(double scale, int32_t zeroPoint);

/// reference_integer_ops::Logistic and Tanh over every int8 value.
Int8Table logisticTable(const SigmoidInput &input);
Int8Table tanhTable(const SigmoidInput &input);

/// reference_ops::HardSwish<int8_t> with HardSwishPrepare's parameters (in
/// float, as TFLM forms them). Empty where TFLM's Prepare fails: an output
/// scale finer than the input's / 128 needs a left shift it does not take.
std::optional<Int8Table> hardSwishTable(float inScale, int32_t inZeroPoint,
                                        float outScale, int32_t outZeroPoint);

/// An int8 tensor's quantisation (as the .tflite stores it: a float scale).
struct Int8Quant {
  float scale = 0;
  int32_t zeroPoint = 0;
};

/// TFLM's int8 ADD, SUB and MUL (CalculateOpDataAdd / Sub / Mul and their
/// elementwise loops, clamped to [lo, hi], the fused activation's range)
/// when one operand is the constant `c`: a function of the other operand.
enum class BinaryKind { Add, Sub, Mul };
struct BinaryOperands {
  Int8Quant lhs, rhs, out;
  int8_t constant = 0;
  bool constantIsLhs = false;
};
/// Empty where TFLM's Prepare fails (a rescale of 1 or more where it needs
/// less) or its int32 arithmetic would overflow.
std::optional<Int8Table> binaryTable(BinaryKind kind, const BinaryOperands &ops,
                                     int32_t lo, int32_t hi);

} // namespace mlir::vmcu::fixedpoint

#endif // VMCU_UTILS_INT8ACTIVATIONS_H
