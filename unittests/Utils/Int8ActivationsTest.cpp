//===- Int8ActivationsTest.cpp - TFLM's int8 activations against numpy ----===//
//
// Expected values are utils/tflite_numpy_ref.py's (logistic, tanh,
// hard_swish, add, sub and mul), its independent transcription of TFLite
// Micro's kernels.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Utils/Int8Activations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

using namespace mlir::vmcu::fixedpoint;

namespace {

int8_t at(const Int8Table &table, int v) { return table[v + 128]; }

void expectEntries(const Int8Table &table,
                   const std::vector<std::pair<int, int>> &expected) {
  for (auto [v, out] : expected)
    EXPECT_EQ(at(table, v), out) << "at input " << v;
}

TEST(Int8Activations, SigmoidInputParams) {
  std::optional<SigmoidInput> in = sigmoidInput(0.0625, 3);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->multiplier, 1073741824);
  EXPECT_EQ(in->leftShift, 24);
  EXPECT_EQ(in->radius, 120);
  EXPECT_FALSE(sigmoidInput(0.0, 0));
}

TEST(Int8Activations, Logistic) {
  Int8Table table = logisticTable(*sigmoidInput(0.0625, 3));
  // Saturated beyond the radius (|v - 3| >= 120), 0.5 at the zero point.
  expectEntries(table, {{-128, -128}, {-100, -128}, {-40, -112}, {-10, -49},
                        {2, -4}, {3, 0}, {4, 4}, {20, 62}, {60, 121},
                        {122, 127}, {123, 127}, {127, 127}});
  EXPECT_TRUE(std::is_sorted(table.begin(), table.end()));
}

TEST(Int8Activations, Tanh) {
  Int8Table table = tanhTable(*sigmoidInput(0.0625, -5));
  expectEntries(table, {{-128, -128}, {-60, -128}, {-20, -94}, {-6, -8},
                        {-5, 0}, {-4, 8}, {10, 94}, {30, 125}, {127, 127}});
  EXPECT_TRUE(std::is_sorted(table.begin(), table.end()));
}

TEST(Int8Activations, HardSwish) {
  std::optional<Int8Table> table = hardSwishTable(0.05f, 10, 0.03f, -90);
  ASSERT_TRUE(table);
  // 0 below -3.0 (v < -50), the identity above +3.0 (v > 70).
  expectEntries(*table, {{-128, -90}, {-50, -90}, {-30, -101}, {0, -97},
                         {10, -90}, {20, -80}, {40, -52}, {70, 10},
                         {127, 105}});
}

TEST(Int8Activations, HardSwishRejectsAFinerOutput) {
  // The output multiplier 0.05 / 128 / 1e-4 > 1 would need a left shift.
  EXPECT_FALSE(hardSwishTable(0.05f, 0, 1e-4f, 0));
}

TEST(Int8Activations, BinaryWithConstant) {
  // x (scale 0.05, zp 10) with a one-element constant; numpy's tables.
  BinaryOperands add{{0.05f, 10}, {0.02f, -3}, {0.07f, -20}, 37, false};
  expectEntries(*binaryTable(BinaryKind::Add, add, -128, 127),
                {{-128, -107}, {-60, -59}, {-1, -16}, {10, -9}, {127, 75}});
  // RELU6 at output scale 0.03, zp -128 clamps to [-128, 72].
  BinaryOperands relu6{{0.05f, 10}, {0.02f, -3}, {0.03f, -128}, 37, false};
  expectEntries(*binaryTable(BinaryKind::Add, relu6, -128, 72),
                {{-60, -128}, {-1, -120}, {50, -35}, {127, 72}});
  // SUB forms its ratios in float; both operand orders.
  BinaryOperands xMinusC{{0.05f, 10}, {0.04f, 5}, {0.06f, 7}, -50, false};
  expectEntries(*binaryTable(BinaryKind::Sub, xMinusC, -128, 127),
                {{-128, -71}, {-60, -15}, {0, 35}, {50, 77}, {127, 127}});
  BinaryOperands cMinusX{{0.04f, 5}, {0.05f, 10}, {0.06f, 7}, -50, true};
  expectEntries(*binaryTable(BinaryKind::Sub, cMinusX, -128, 127),
                {{-128, 85}, {-60, 29}, {0, -21}, {50, -63}, {127, -127}});
  BinaryOperands mul{{0.05f, 10}, {0.01f, -1}, {0.03f, 2}, 90, false};
  expectEntries(*binaryTable(BinaryKind::Mul, mul, -128, 127),
                {{-60, -104}, {-1, -15}, {0, -13}, {10, 2}, {50, 63}});
}

TEST(Int8Activations, BinaryRejectsWhatTFLiteRejects) {
  // ADD's output rescale 2 * 0.05 / (2^20 * 1e-8) is not below 1.
  BinaryOperands tinyOut{{0.05f, 0}, {0.05f, 0}, {1e-8f, 0}, 1, false};
  EXPECT_FALSE(binaryTable(BinaryKind::Add, tinyOut, -128, 127));
  // MUL's left shift of 17 overflows the int32 product.
  BinaryOperands bigMul{{1.0f, 0}, {1.0f, 0}, {1e-5f, 0}, 1, false};
  EXPECT_FALSE(binaryTable(BinaryKind::Mul, bigMul, -128, 127));
}

} // namespace
