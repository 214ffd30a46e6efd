//===- Int8ActivationsTest.cpp - TFLM's int8 activations against numpy ----===//
//
// Expected values are utils/tflite_numpy_ref.py's (logistic, tanh and
// hard_swish), its independent transcription of TFLite Micro's kernels.
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

} // namespace
