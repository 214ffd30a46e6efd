//===- FlashRankingTest.cpp - the flash budget's ranking ------------------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::vmcu;

namespace {

FlashCandidate int8Weights(std::string kernel, uint64_t bytes, int64_t cycles) {
  return {std::move(kernel), &FlashPlan::int8WeightKernels, bytes, cycles};
}

FlashCandidate compactCode(std::string kernel, uint64_t bytes, int64_t cycles) {
  return {std::move(kernel), &FlashPlan::compactKernels, bytes, cycles};
}

using Names = std::vector<std::string>;

TEST(FlashRanking, FewestCyclesPerByteFirst) {
  std::vector<FlashCandidate> candidates = {int8Weights("a", 100, 1000),
                                            compactCode("b", 100, 100),
                                            int8Weights("c", 1000, 2000)};
  rankCandidates(candidates);
  EXPECT_EQ(candidates[0].kernel, "b");
  EXPECT_EQ(candidates[1].kernel, "c");
  EXPECT_EQ(candidates[2].kernel, "a");
}

TEST(FlashRanking, Int8WeightsBeforeCompactCodeAtOnePrice) {
  std::vector<FlashCandidate> candidates = {compactCode("a", 100, 100),
                                            int8Weights("a", 200, 200)};
  rankCandidates(candidates);
  EXPECT_EQ(candidates[0].list, &FlashPlan::int8WeightKernels);
  EXPECT_EQ(candidates[1].list, &FlashPlan::compactKernels);
}

// Compact code cheaper per byte than the same layer's int8 weights: one
// candidate, which takes both, so compact code never runs over the
// widened weights it was not measured on.
TEST(FlashRanking, CheaperCompactCodeJoinsItsInt8Weights) {
  std::vector<FlashCandidate> candidates = {int8Weights("a", 100, 1000),
                                            compactCode("a", 500, 500),
                                            int8Weights("b", 100, 5000)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 2u);
  rankCandidates(candidates);
  const FlashCandidate &joined = candidates[0];
  EXPECT_EQ(joined.kernel, "a");
  EXPECT_TRUE(joined.withInt8Weights);
  EXPECT_EQ(joined.savedBytes, 600u);
  EXPECT_EQ(joined.cycles, 1500);
  FlashPlan plan = planOf(candidates, 1);
  EXPECT_EQ(plan.int8WeightKernels, Names{"a"});
  EXPECT_EQ(plan.compactKernels, Names{"a"});
}

// Dearer compact code stays its own candidate, ranked after the int8
// weights, so any prefix that takes it takes them too.
TEST(FlashRanking, DearerCompactCodeFollowsItsInt8Weights) {
  std::vector<FlashCandidate> candidates = {compactCode("a", 100, 1000),
                                            int8Weights("a", 100, 100),
                                            compactCode("b", 100, 500)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 3u);
  rankCandidates(candidates);
  EXPECT_EQ(planOf(candidates, 1).int8WeightKernels, Names{"a"});
  FlashPlan all = planOf(candidates, 3);
  EXPECT_EQ(all.int8WeightKernels, Names{"a"});
  EXPECT_EQ(all.compactKernels, (Names{"b", "a"}));
}

// A layer without an int8 candidate (weights never widened) keeps its
// compact code alone.
TEST(FlashRanking, CompactCodeWithoutInt8CandidateStandsAlone) {
  std::vector<FlashCandidate> candidates = {compactCode("pool", 300, 30)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_FALSE(candidates[0].withInt8Weights);
  EXPECT_TRUE(planOf(candidates, 1).int8WeightKernels.empty());
}

} // namespace
