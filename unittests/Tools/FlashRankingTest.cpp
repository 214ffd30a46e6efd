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
  EXPECT_EQ(all.int8WeightKernels, (Names{"a", "b"}));
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

// Compact code absorbs the dearest int8 candidates it overlaps while they
// cost more per byte than it does with them; the cheaper rank first.
TEST(FlashRanking, CompactCodeAbsorbsOnlyDearerInt8Weights) {
  std::vector<FlashCandidate> candidates = {int8Weights({"a"}, 100, 10),
                                            int8Weights({"b"}, 100, 1000),
                                            compactCode({"a", "b"}, 100, 800)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 2u);
  rankCandidates(candidates);
  EXPECT_EQ(candidates[0].kernels, Names{"a"});
  const FlashCandidate &compact = candidates[1];
  EXPECT_EQ(compact.savedBytes, 200u);
  EXPECT_EQ(compact.cycles, 1800);
  EXPECT_EQ(planOf(candidates, 2).int8WeightKernels, (Names{"a", "b"}));
}

// An int8 candidate two compact ones overlap joins the cheaper one, in
// whichever order they come.
TEST(FlashRanking, CheapestCompactCodeAbsorbsFirst) {
  for (bool reversed : {false, true}) {
    std::vector<FlashCandidate> candidates = {
        int8Weights({"a", "b"}, 100, 1000), compactCode({"a"}, 100, 100),
        compactCode({"b"}, 100, 50)};
    if (reversed)
      std::swap(candidates[1], candidates[2]);
    joinCompactWithInt8(candidates);
    ASSERT_EQ(candidates.size(), 2u);
    for (const FlashCandidate &candidate : candidates)
      if (candidate.kernels == Names{"b"})
        EXPECT_EQ(candidate.savedBytes, 200u);
      else
        EXPECT_EQ(candidate.savedBytes, 100u);
  }
}

// A layer without an int8 candidate (weights never widened, or int8
// weights that save nothing) still gets the int8 weights its compact code
// was measured on; nothing is added to its price.
TEST(FlashRanking, CompactCodeWithoutInt8CandidateKeepsItsPrice) {
  std::vector<FlashCandidate> candidates = {compactCode({"pool"}, 300, 30)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].savedBytes, 300u);
  EXPECT_EQ(candidates[0].cycles, 30);
  EXPECT_EQ(planOf(candidates, 1).int8WeightKernels, Names{"pool"});
}

// Layers that share a function in either trial are one group; groups that
// overlap join; names not among the layers (or "") are ignored.
TEST(FlashRanking, ChoiceGroupsJoinSharingOfBothTrials) {
  llvm::SmallVector<llvm::StringRef> layers = {"e", "d", "c", "b", "a"};
  std::vector<std::vector<Names>> sharings = {{{"a", "b"}, {"", "x"}},
                                              {{"b", "c"}, {"e", "zz"}}};
  std::vector<Names> groups = choiceGroups(layers, sharings);
  EXPECT_EQ(groups, (std::vector<Names>{{"a", "b", "c"}, {"d"}, {"e"}}));
}

} // namespace
