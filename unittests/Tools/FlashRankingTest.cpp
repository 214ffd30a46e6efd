//===- FlashRankingTest.cpp - the flash budget's ranking ------------------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::vmcu;

namespace {

using Names = std::vector<std::string>;

FlashCandidate int8Weights(Names kernels, int64_t bytes, int64_t cycles) {
  return {std::move(kernels), &FlashPlan::int8WeightKernels, bytes, cycles};
}

FlashCandidate compactCode(Names kernels, int64_t bytes, int64_t cycles) {
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
  EXPECT_EQ(joined.savedBytes, 600);
  EXPECT_EQ(joined.cycles, 1500);
  FlashPlan plan = planOf(candidates, 1, kCompactLevelsFaster);
  EXPECT_EQ(plan.int8WeightKernels, Names{"a"});
  EXPECT_EQ(plan.compactKernels, Names{"a"});
  EXPECT_EQ(plan.compactLevels, kCompactLevelsFaster);
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
  EXPECT_EQ(planOf(candidates, 1, kCompactLevelsSmallest).int8WeightKernels,
            Names{"a"});
  FlashPlan all = planOf(candidates, 3, kCompactLevelsSmallest);
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
  EXPECT_EQ(candidates[0].savedBytes, 3300);
  EXPECT_EQ(candidates[0].cycles, 3600);
  FlashPlan plan = planOf(candidates, 1, kCompactLevelsSmallest);
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
  EXPECT_EQ(compact.savedBytes, 200);
  EXPECT_EQ(compact.cycles, 1800);
  EXPECT_EQ(planOf(candidates, 2, kCompactLevelsSmallest).int8WeightKernels,
            (Names{"a", "b"}));
}

// Int8 weights that save no bytes, or cost bytes, are no choice of their
// own, but the compact code that needs them pays for them.
TEST(FlashRanking, CompactCodePaysForInt8WeightsThatSaveNoBytes) {
  std::vector<FlashCandidate> candidates = {int8Weights({"dw"}, -20, 400),
                                            compactCode({"dw"}, 100, 50)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].kernels, Names{"dw"});
  EXPECT_EQ(candidates[0].savedBytes, 80);
  EXPECT_EQ(candidates[0].cycles, 450);
  FlashPlan plan = planOf(candidates, 1, kCompactLevelsSmallest);
  EXPECT_EQ(plan.int8WeightKernels, Names{"dw"});
  EXPECT_EQ(plan.compactKernels, Names{"dw"});
}

// Compact code that saves no bytes once it pays for the int8 weights it
// needs is no choice, and absorbs nothing: the int8 candidates that save
// bytes stay.
TEST(FlashRanking, CompactCodeThatCannotPayForItsInt8WeightsIsDropped) {
  std::vector<FlashCandidate> candidates = {
      compactCode({"a", "b"}, 100, 10), int8Weights({"a"}, -150, 400),
      int8Weights({"b"}, 500, 5000), compactCode({"c"}, 0, 0),
      int8Weights({"c"}, 0, 0)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].kernels, Names{"b"});
  EXPECT_EQ(candidates[0].list, &FlashPlan::int8WeightKernels);
  EXPECT_EQ(candidates[0].savedBytes, 500);
}

// A candidate per choice group, whatever it saves; a group whose bytes did
// not change costs no cycles, a layer that keeps its bytes in a group that
// saves some costs its own (a shared function's code counts in one layer).
// Compact code's groups, joined over more trials' sharing, hold whole int8
// groups, so one compact candidate pays for each int8 candidate.
TEST(FlashRanking, GroupCandidatesSumTheirLayers) {
  llvm::StringMap<LayerTrade> int8Trades;
  int8Trades["a"] = {300, 200, 10};
  int8Trades["b"] = {300, 200, 20};
  int8Trades["c"] = {50, 50, 99};
  std::vector<std::vector<Names>> int8Sharing = {{{"a", "b"}}};
  std::vector<FlashCandidate> int8 =
      groupCandidates(int8Trades, int8Sharing, &FlashPlan::int8WeightKernels);
  ASSERT_EQ(int8.size(), 2u);
  EXPECT_EQ(int8[0].kernels, (Names{"a", "b"}));
  EXPECT_EQ(int8[0].savedBytes, 200);
  EXPECT_EQ(int8[0].cycles, 30);
  EXPECT_EQ(int8[1].kernels, Names{"c"});
  EXPECT_EQ(int8[1].savedBytes, 0);
  EXPECT_EQ(int8[1].cycles, 0);

  llvm::StringMap<LayerTrade> compactTrades;
  compactTrades["a"] = {400, 200, 5};
  compactTrades["b"] = {0, 0, 5};
  compactTrades["c"] = {50, 40, 1};
  std::vector<std::vector<Names>> compactSharing = {{{"a", "b"}}, {{"b", "c"}}};
  std::vector<FlashCandidate> candidates = groupCandidates(
      compactTrades, compactSharing, &FlashPlan::compactKernels);
  ASSERT_EQ(candidates.size(), 1u);
  llvm::append_range(candidates, int8);
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].kernels, (Names{"a", "b", "c"}));
  EXPECT_EQ(candidates[0].savedBytes, 410);
  EXPECT_EQ(candidates[0].cycles, 41);
}

// The bytes a fitting plan has to spare give back its dearest candidates
// they cover; int8 weights a kept compact candidate needs stay.
TEST(FlashRanking, SpareBytesGiveBackTheDearestCandidates) {
  std::vector<FlashCandidate> candidates = {
      int8Weights({"a"}, 1000, 100), int8Weights({"b"}, 300, 60),
      compactCode({"b"}, 2000, 500), int8Weights({"c"}, 400, 200),
      compactCode({"d"}, 5000, 5000)};
  joinCompactWithInt8(candidates);
  ASSERT_EQ(candidates.size(), 5u);
  rankCandidates(candidates);
  std::vector<FlashCandidate> kept = dropUnneeded(candidates, 800);
  // d (1/B) is too large; c (0.5/B) fits the 800 spare bytes; b's int8
  // weights are needed by b's compact code; a (0.1/B) is cheaper than b's
  // compact code (0.25/B), which takes 2000 B more than the 400 B left.
  ASSERT_EQ(kept.size(), 4u);
  EXPECT_EQ(kept[0].kernels, Names{"a"});
  EXPECT_EQ(kept[1].kernels, Names{"b"});
  EXPECT_EQ(kept[2].kernels, Names{"b"});
  EXPECT_EQ(kept[3].kernels, Names{"d"});
  EXPECT_EQ(dropUnneeded(candidates, 0).size(), 5u);
  // With 3500 B: c, then b's compact code, then its int8 weights.
  std::vector<FlashCandidate> fewer = dropUnneeded(candidates, 3500);
  ASSERT_EQ(fewer.size(), 2u);
  EXPECT_EQ(fewer[0].kernels, Names{"a"});
  EXPECT_EQ(fewer[1].kernels, Names{"d"});
}

// Layers that share a function in any trial are one group; groups that
// overlap join; names not among the layers (or "") are ignored.
TEST(FlashRanking, ChoiceGroupsJoinSharingOfEveryTrial) {
  llvm::SmallVector<llvm::StringRef> layers = {"f", "e", "d", "c", "b", "a"};
  std::vector<std::vector<Names>> sharings = {
      {{"a", "b"}, {"", "x"}}, {{"b", "c"}, {"e", "zz"}}, {{"d", "f"}}};
  std::vector<Names> groups = choiceGroups(layers, sharings);
  EXPECT_EQ(groups, (std::vector<Names>{{"a", "b", "c"}, {"d", "f"}, {"e"}}));
}

} // namespace
