//===- CostModelTest.cpp - the schedule chooser's cycle model -------------===//

#include "vmcu/Analysis/CostModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace mlir::vmcu::analysis;

namespace {

constexpr KernelKind kAllKinds[] = {
    KernelKind::Gemm,           KernelKind::Dot,
    KernelKind::Im2col,         KernelKind::Depthwise,
    KernelKind::Elementwise,    KernelKind::AvgPool,
    KernelKind::FusedRecompute, KernelKind::FusedLineBuffer,
    KernelKind::FusedStem};

TEST(CostModel, EveryKindHasANameAndNonNegativeCosts) {
  for (KernelKind kind : kAllKinds) {
    EXPECT_NE(kindName(kind), "unknown");
    EXPECT_GE(cycleCost(kind).perMac, 0.0);
    EXPECT_GE(cycleCost(kind).perOutput, 0.0);
    CycleCost cost = cycleCost(kind);
    EXPECT_GT(cost.perMac + cost.perOutput + cost.perAccess, 0.0);
    EXPECT_GE(cycleCost(kind).perAccess, 0.0);
  }
}

TEST(CostModel, LinearInMacsOutputsAndAccesses) {
  for (KernelKind kind : kAllKinds) {
    CycleCost cost = cycleCost(kind);
    KernelWork work{kind, 1000000, 20000, 3000};
    EXPECT_EQ(estimateCycles(work),
              std::llround(cost.perMac * 1000000 + cost.perOutput * 20000 +
                           cost.perAccess * 3000));
    EXPECT_EQ(estimateCycles(KernelWork{kind, 0, 0, 0}), 0);
  }
}

// The same work in narrower segments (more ring accesses) never costs less,
// and costs more where the fit found a per-access cost: a 3x3 depthwise
// over 5 channels in 1-byte segments measured 4.8x its 5-byte cycles.
TEST(CostModel, NarrowSegmentsCostMoreWhereFitted) {
  for (KernelKind kind : kAllKinds) {
    KernelWork wide{kind, 6480, 720, 1444};
    KernelWork narrow{kind, 6480, 720, 7220};
    EXPECT_LE(estimateCycles(wide), estimateCycles(narrow));
  }
  EXPECT_GT(estimateCycles({KernelKind::Depthwise, 6480, 720, 7220}),
            2 * estimateCycles({KernelKind::Depthwise, 6480, 720, 1444}));
}

TEST(CostModel, MoreWorkNeverCostsLess) {
  for (KernelKind kind : kAllKinds)
    for (int64_t macs : {0, 1000, 100000})
      for (int64_t outputs : {1, 100, 10000}) {
        int64_t base = estimateCycles({kind, macs, outputs, outputs});
        EXPECT_LE(base, estimateCycles({kind, macs + 64, outputs, outputs}));
        EXPECT_LE(base, estimateCycles({kind, macs, outputs + 1, outputs}));
        EXPECT_LE(base, estimateCycles({kind, macs, outputs, outputs + 1}));
      }
}

// Per MAC the GEMM register tile is the cheapest kernel (a pool's MACs are
// its window's accumulations), among the kinds whose fit prices MACs: a
// fused stem's is per ring access, its line buffer's and windows' steps.
TEST(CostModel, GemmIsTheCheapestPerMac) {
  for (KernelKind kind : kAllKinds) {
    if (cycleCost(kind).perMac > 0.0) {
      EXPECT_LE(cycleCost(KernelKind::Gemm).perMac, cycleCost(kind).perMac);
    }
  }
  EXPECT_GT(cycleCost(KernelKind::FusedStem).perAccess, 0.0);
}

// Int8 weights cost nothing without weighted work, more with more of it,
// and an im2col MAC more than a GEMM MAC (its int8 weights are unpacked per
// window, the GEMM's once per register tile).
TEST(CostModel, Int8WeightsCostFollowTheWork) {
  EXPECT_EQ(estimateInt8WeightCycles({}, 0), 0);
  WidenedWeightWork gemm{/*gemmMacs=*/100000, 0, 0};
  WidenedWeightWork im2col{0, /*im2colMacs=*/100000, 0};
  WidenedWeightWork depthwise{0, 0, /*depthwiseOutputs=*/1000};
  EXPECT_GT(estimateInt8WeightCycles(gemm, 0), 0);
  EXPECT_GT(estimateInt8WeightCycles(im2col, 0),
            estimateInt8WeightCycles(gemm, 0));
  EXPECT_GT(estimateInt8WeightCycles(depthwise, 0), 0);
  WidenedWeightWork all{100000, 100000, 1000};
  EXPECT_EQ(estimateInt8WeightCycles(all, 0),
            estimateInt8WeightCycles(gemm, 0) +
                estimateInt8WeightCycles(im2col, 0) +
                estimateInt8WeightCycles(depthwise, 0));
}

// On flash with wait states, widened weights' extra reads stall the core:
// the more wait states, the less int8 weights cost, never below 0.
TEST(CostModel, WaitStatesLowerTheInt8WeightsCost) {
  WidenedWeightWork all{100000, 100000, 1000};
  int64_t previous = estimateInt8WeightCycles(all, 0);
  for (unsigned waitStates = 1; waitStates <= 15; ++waitStates) {
    int64_t cycles = estimateInt8WeightCycles(all, waitStates);
    EXPECT_LT(cycles, previous);
    EXPECT_GE(cycles, 0);
    previous = std::max<int64_t>(cycles, 1);
  }
  EXPECT_EQ(estimateInt8WeightCycles({}, 15), 0);
}

// Compact code costs a share of a kernel's cycles: more with more cycles,
// nothing without, never all of them.
TEST(CostModel, CompactCodeCostsAShareOfTheCycles) {
  constexpr int64_t kCycles = 1000000;
  int64_t cost = estimateCompactCycles(kCycles);
  EXPECT_GT(cost, 0);
  EXPECT_LT(cost, kCycles);
  EXPECT_LT(estimateCompactCycles(kCycles / 2), cost);
  EXPECT_EQ(estimateCompactCycles(0), 0);
  EXPECT_EQ(estimateCompactCycles(-kCycles), 0);
}

} // namespace
