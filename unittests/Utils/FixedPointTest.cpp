//===- FixedPointTest.cpp - gemmlowp fixed point against the numpy oracle -===//
//
// Expected values are utils/tflite_numpy_ref.py's (its softmax_params,
// softmax_row, exp_on_negative_values and one_over_one_plus_x_for_x_in_0_1),
// the transcription of TFLite's reference_ops::Softmax the E2E tests use.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Utils/FixedPoint.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace mlir::vmcu::fixedpoint;

namespace {

TEST(FixedPoint, ExpOnNegativeValues) {
  // Q5.26 inputs: 0, -2^-26, -1/4, -1, -5, -31.
  EXPECT_EQ(expOnNegativeValues(0), 2147483647);
  EXPECT_EQ(expOnNegativeValues(-1), 2147483124);
  EXPECT_EQ(expOnNegativeValues(-(1 << 24)), 1672462419);
  EXPECT_EQ(expOnNegativeValues(-(1 << 26)), 790015308);
  EXPECT_EQ(expOnNegativeValues(-(5 << 26)), 14469635);
  EXPECT_EQ(expOnNegativeValues(-(31 << 26)), 0);
}

TEST(FixedPoint, OneOverOnePlusX) {
  EXPECT_EQ(oneOverOnePlusX(0), 2147483647);
  EXPECT_EQ(oneOverOnePlusX(1 << 30), 1431655762);
  EXPECT_EQ(oneOverOnePlusX(2147483647), 1073741820);
  EXPECT_EQ(oneOverOnePlusX(12345678), 2135208542);
}

TEST(FixedPoint, RoundingPrimitives) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);   // 2.5 -> 3
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3); // -2.5 -> -3
  EXPECT_EQ(roundingDivideByPOT(-4, 2), -1);
  EXPECT_EQ(saturatingShiftLeft(1 << 29, 2), 2147483647);
  EXPECT_EQ(saturatingShiftLeft(-(1 << 29) - 1, 2), -2147483647 - 1);
  EXPECT_EQ(saturatingShiftLeft(-3, 2), -12);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-2147483647 - 1, -2147483647 - 1),
            2147483647);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
}

struct RowCase {
  double beta;
  float inputScale;
  SoftmaxParams params;
  std::vector<int8_t> row, expected;
};

TEST(FixedPoint, SoftmaxMatchesReference) {
  std::vector<RowCase> cases = {
      {1.0, 0.1f, {1717986944, 23, -248}, {10, -20, 30, 5}, {-100, -127, 81, -111}},
      {1.0, 0.0625f, {1073741824, 23, -248},
       {127, -128, 0, 1, 2, 3, 100, -50, 126, 127, 0, -1},
       {-46, -128, -128, -128, -128, -128, -113, -128, -51, -46, -128, -128}},
      {0.5, 0.3f, {1288490240, 24, -124}, {-128, 127}, {-128, 127}},
      {1.0, 0.01f, {1374389504, 20, -1984}, {0, 0, 0}, {-43, -43, -43}},
  };
  for (const RowCase &c : cases) {
    std::optional<SoftmaxParams> p = softmaxParams(c.beta, c.inputScale);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->multiplier, c.params.multiplier);
    EXPECT_EQ(p->leftShift, c.params.leftShift);
    EXPECT_EQ(p->diffMin, c.params.diffMin);
    EXPECT_EQ(softmaxRow(c.row, *p), c.expected);
  }
}

TEST(FixedPoint, SoftmaxExpTable) {
  SoftmaxParams p = *softmaxParams(1.0, 0.5f);
  std::array<int32_t, kInt8Differences> table = softmaxExpTable(p);
  EXPECT_EQ(table[0], 2147483647); // exp(0) is One
  for (int d = 1; d < kInt8Differences; ++d)
    EXPECT_LE(table[d], table[d - 1]);
  // Differences below diff_min contribute nothing.
  SoftmaxParams steep = *softmaxParams(1.0, 8.0f);
  EXPECT_EQ(softmaxExpTable(steep)[kInt8Differences - 1], 0);
}

TEST(FixedPoint, SoftmaxParamsRejectsTinyScales) {
  EXPECT_FALSE(softmaxParams(1.0, 1e-12));
  EXPECT_FALSE(softmaxParams(0.0, 0.1));
}

TEST(FixedPoint, TosaRescale) {
  constexpr int64_t kLo = INT32_MIN, kHi = INT32_MAX;
  constexpr int32_t kOne30 = 1 << 30;
  // Scale 1 (2^30 / 2^30) after the input zero point.
  EXPECT_EQ(tosaRescale(5, kOne30, 30, true, 3, 0, kLo, kHi), 2);
  // An add's left shift: 2^30 / 2^10 = 2^20.
  EXPECT_EQ(tosaRescale(-7, kOne30, 10, true, 0, 0, kLo, kHi), -7340032);
  // -12 / 8 = -1.5: double rounding (shift > 31) away from zero, single
  // rounding up; 12 / 8 = 1.5 rounds to 2 either way.
  EXPECT_EQ(tosaRescale(-12, kOne30, 33, true, 0, 0, kLo, kHi), -2);
  EXPECT_EQ(tosaRescale(-12, kOne30, 33, false, 0, 0, kLo, kHi), -1);
  EXPECT_EQ(tosaRescale(12, kOne30, 33, true, 0, 0, kLo, kHi), 2);
  // The output zero point, then the clamp.
  EXPECT_EQ(tosaRescale(100, kOne30, 30, true, 0, 50, -128, 127), 127);
  EXPECT_EQ(tosaRescale(-100, kOne30, 30, true, 0, -50, -128, 127), -128);
  EXPECT_EQ(tosaRescale(-128, 1518500250, 40, true, -5, 3, -128, 127), 3);
}

} // namespace
