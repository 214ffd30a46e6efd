//===- CostModelTest.cpp - the schedule chooser's cycle model -------------===//

#include "vmcu/Analysis/CostModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir::vmcu::analysis;

namespace {

constexpr KernelKind kAllKinds[] = {KernelKind::Gemm,
                                    KernelKind::Dot,
                                    KernelKind::Im2col,
                                    KernelKind::Depthwise,
                                    KernelKind::Elementwise,
                                    KernelKind::FusedRecompute,
                                    KernelKind::FusedLineBuffer,
                                    KernelKind::FusedStem};

TEST(CostModel, EveryKindHasANameAndNonNegativeCosts) {
  for (KernelKind kind : kAllKinds) {
    EXPECT_NE(kindName(kind), "unknown");
    EXPECT_GE(cycleCost(kind).perMac, 0.0);
    EXPECT_GT(cycleCost(kind).perOutput, 0.0);
  }
}

TEST(CostModel, LinearInMacsAndOutputs) {
  for (KernelKind kind : kAllKinds) {
    CycleCost cost = cycleCost(kind);
    KernelWork work{kind, 1000000, 20000};
    EXPECT_EQ(estimateCycles(work),
              std::llround(cost.perMac * 1000000 + cost.perOutput * 20000));
    EXPECT_EQ(estimateCycles(KernelWork{kind, 0, 0}), 0);
  }
}

TEST(CostModel, MoreWorkNeverCostsLess) {
  for (KernelKind kind : kAllKinds)
    for (int64_t macs : {0, 1000, 100000})
      for (int64_t outputs : {1, 100, 10000}) {
        int64_t base = estimateCycles({kind, macs, outputs});
        EXPECT_LE(base, estimateCycles({kind, macs + 64, outputs}));
        EXPECT_LE(base, estimateCycles({kind, macs, outputs + 1}));
      }
}

// Per MAC the GEMM register tile is the cheapest kernel that has MACs
// (pooling and add have none: their cost is per output).
TEST(CostModel, GemmIsTheCheapestPerMac) {
  for (KernelKind kind : kAllKinds) {
    if (kind != KernelKind::Elementwise) {
      EXPECT_LE(cycleCost(KernelKind::Gemm).perMac, cycleCost(kind).perMac);
    }
  }
  EXPECT_EQ(cycleCost(KernelKind::Elementwise).perMac, 0.0);
}

} // namespace
