//===- FlashRankingTest.cpp - the flash budget's ranking ------------------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::vmcu;

namespace {

using Names = std::vector<std::string>;

FlashCandidate int8Weights(Names kernels, uint64_t bytes, int64_t cycles) {
  return {std::move(kernels), &FlashPlan::int8WeightKernels, bytes, cycles};
}

FlashCandidate compactCode(Names kernels, uint64_t bytes, int64_t cycles) {
  return {std::move(kernels), &FlashPlan::compactKernels, bytes, cycles};
}

TEST(FlashRanking, FewestCyclesPerByteFirst) {
  std::vector<FlashCandidate> candidates = {int8Weights({"a"}, 100, 1000),
                                            compactCode({"b"}, 100, 100),
                                            int8Weights({"c"}, 1000, 2000)};
  rankCandidates(candidates);
  EXPECT_EQ(candidates[0].kernels, Names{"b"});
  EXPECT_EQ(candidates[1].kernels, Names{"c"});
  EXPECT_EQ(candidates[2].kernels, Names{"a"});
}

TEST(FlashRanking, Int8WeightsBeforeCompactCodeAtOnePrice) {
  std::vector<FlashCandidate> candidates = {compactCode({"a"}, 100, 100),
                                            int8Weights({"a"}, 200, 200)};
  rankCandidates(candidates);
  EXPECT_EQ(candidates[0].list, &FlashPlan::int8WeightKernels);
  EXPECT_EQ(candidates[1].list, &FlashPlan::compactKernels);
}

// Compact code cheaper per byte than the same layer's int8 weights: one
// candidate, which takes both, so compact code never runs over the
// widened weights it was not measured on.
TEST(FlashRanking, CheaperCompactCodeJoinsItsInt8Weights) {
  std::vector<FlashCandidate> candidates = {int8Weights({"a"}, 100, 1000),
                                            compactCode({"a"}, 500, 500),
                                            int8Weights({"b"}, 100, 5000)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 2u);
  rankCandidates(candidates);
  const FlashCandidate &joined = candidates[0];
  EXPECT_EQ(joined.kernels, Names{"a"});
  EXPECT_EQ(joined.savedBytes, 600u);
  EXPECT_EQ(joined.cycles, 1500);
  FlashPlan plan = planOf(candidates, 1);
  EXPECT_EQ(plan.int8WeightKernels, Names{"a"});
  EXPECT_EQ(plan.compactKernels, Names{"a"});
}

// Dearer compact code stays its own candidate, ranked after the int8
// weights; a plan that takes it takes them.
TEST(FlashRanking, DearerCompactCodeFollowsItsInt8Weights) {
  std::vector<FlashCandidate> candidates = {compactCode({"a"}, 100, 1000),
                                            int8Weights({"a"}, 100, 100),
                                            compactCode({"b"}, 100, 500)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 3u);
  rankCandidates(candidates);
  EXPECT_EQ(planOf(candidates, 1).int8WeightKernels, Names{"a"});
  FlashPlan all = planOf(candidates, 3);
  EXPECT_EQ(all.int8WeightKernels, Names{"a"});
  EXPECT_EQ(all.compactKernels, (Names{"b", "a"}));
}

// Layers that share a function are one candidate; compact code over
// several int8 candidates needs them all, and joins them together.
TEST(FlashRanking, SharedKernelsJoinEveryOverlappingInt8Candidate) {
  std::vector<FlashCandidate> candidates = {
      int8Weights({"a"}, 100, 1000), int8Weights({"b", "c"}, 200, 2000),
      compactCode({"a", "b", "c"}, 3000, 600)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].savedBytes, 3300u);
  EXPECT_EQ(candidates[0].cycles, 3600);
  FlashPlan plan = planOf(candidates, 1);
  EXPECT_EQ(plan.int8WeightKernels, (Names{"a", "b", "c"}));
  EXPECT_EQ(plan.compactKernels, (Names{"a", "b", "c"}));
}

// A plan that takes compact code ahead of int8 weights it overlaps (ranked
// apart: dearer together) still gives those layers int8 weights.
TEST(FlashRanking, CompactCodeAlwaysBringsItsInt8Weights) {
  // Together the int8 weights cost 5.05 cycles per byte; the compact
  // code 8, between a's 0.1 and b's 10.
  std::vector<FlashCandidate> candidates = {int8Weights({"a"}, 100, 10),
                                            int8Weights({"b"}, 100, 1000),
                                            compactCode({"a", "b"}, 100, 800)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 3u);
  rankCandidates(candidates);
  ASSERT_EQ(candidates[1].list, &FlashPlan::compactKernels);
  EXPECT_EQ(planOf(candidates, 2).int8WeightKernels, (Names{"a", "b"}));
}

// A layer without an int8 candidate (weights never widened) keeps its
// compact code alone.
TEST(FlashRanking, CompactCodeWithoutInt8CandidateStandsAlone) {
  std::vector<FlashCandidate> candidates = {compactCode({"pool"}, 300, 30)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_TRUE(planOf(candidates, 1).int8WeightKernels.empty());
}

} // namespace
