//===- TwoCoreSplitTest.cpp - Frees delayed for two cores -----------------===//
//
// KernelPattern::freeDelay models two cores that take a kernel's top-level
// iterations in turn (core i % 2 runs iteration i) and wait until the
// other core has finished every iteration up to i - 3 (vmcu-split-kernels).
// A store in iteration i is then ordered after the loads of iterations
// <= i - 2 and after the earlier loads of iteration i; a load of iteration
// i - 1 (the other core) or later may still be pending. These tests check
// the solver's distance for freeDelay 2 against that rule, replayed on the
// undelayed events, and that the one-core distance breaks it.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/KernelPatterns.h"
#include "TestAnalysis/RandomLayers.h"
#include "vmcu/Analysis/OffsetSolver.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace mlir::vmcu::analysis;

namespace {

constexpr uint32_t kSeed = 0x2c0e5u;
constexpr int kRandomConvs = 300;
constexpr int64_t kMaxSpatial = 8;
/// The split's free delay: the other core may still run iteration i - 1.
constexpr int64_t kTwoCoreFreeDelay = 2;

/// An event and the top-level iteration that issued it.
struct TimedEvent {
  Event event;
  int64_t iteration;
};

/// The undelayed loads and stores of a pattern whose last top-level node is
/// the loop that holds them (conv2d's first frees the pixels no window
/// reads), each with its iteration: one walk per iteration of a copy of
/// the pattern whose loop runs that iteration alone.
std::vector<TimedEvent> timedEvents(const KernelPattern &pattern) {
  const Loop &loop = pattern.body.back().loop();
  int64_t lo = loop.lower.terms.front().constant;
  int64_t hi = loop.upper.terms.front().constant;
  std::vector<TimedEvent> events;
  int64_t iteration = 0;
  for (int64_t iv = lo; iv < hi; iv += loop.step, ++iteration) {
    KernelPattern one = pattern;
    one.freeDelay = 0;
    Loop &only = std::get<Loop>(one.body.back().value);
    only.lower.terms = {affineConstant(iv)};
    only.upper.terms = {affineConstant(iv + 1)};
    for (const Event &event : collectEvents(one))
      if (event.kind != AccessKind::Free)
        events.push_back({event, iteration});
  }
  return events;
}

/// Whether distance d keeps every store of the two-core run off input
/// segments a load still needs: a load of the overwritten input segment in
/// iteration t must be in t <= i - 2, or earlier in iteration i itself.
bool twoCoreSafe(const std::vector<TimedEvent> &events, int64_t inputSegments,
                 int64_t d) {
  // Input segment -> iterations that load it, with each load's position.
  std::map<int64_t, std::vector<std::pair<int64_t, size_t>>> loads;
  for (size_t pos = 0; pos < events.size(); ++pos)
    if (events[pos].event.kind == AccessKind::Load &&
        events[pos].event.role == TensorRole::Input)
      loads[events[pos].event.address].push_back({events[pos].iteration, pos});
  for (size_t pos = 0; pos < events.size(); ++pos) {
    const TimedEvent &store = events[pos];
    if (store.event.kind != AccessKind::Store)
      continue;
    int64_t input = store.event.address - d;
    if (input < 0 || input >= inputSegments)
      continue;
    for (auto [t, loadPos] : loads[input]) {
      bool ordered = t <= store.iteration - kTwoCoreFreeDelay ||
                     (t == store.iteration && loadPos < pos);
      if (!ordered)
        return false;
    }
  }
  return true;
}

TEST(TwoCoreSplitTest, FreesApplyTwoIterationsLate) {
  PatternResult conv = conv2d(4, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1);
  ASSERT_TRUE(conv.ok()) << conv.error;
  KernelPattern delayed = *conv;
  delayed.freeDelay = kTwoCoreFreeDelay;
  ASSERT_FALSE(validate(delayed).has_value()) << *validate(delayed);
  // Row p frees its 2 pixels; with the delay they apply before row p + 2's
  // first load, and rows 2 and 3's after the loop.
  std::vector<Event> events = collectEvents(delayed);
  std::vector<int64_t> frees;
  size_t firstFree = events.size();
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].kind == AccessKind::Free) {
      frees.push_back(events[i].address);
      firstFree = std::min(firstFree, i);
    }
  EXPECT_EQ(frees, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Rows 0 and 1 load and store 2 pixels each (8 events) before row 0's
  // frees apply.
  EXPECT_EQ(firstFree, 8u);
  EXPECT_EQ(collectEvents(*conv).size(), events.size());
}

TEST(TwoCoreSplitTest, NegativeDelayIsRejected) {
  PatternResult conv = conv2d(2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1);
  ASSERT_TRUE(conv.ok());
  KernelPattern bad = *conv;
  bad.freeDelay = -1;
  ASSERT_TRUE(validate(bad).has_value());
}

TEST(TwoCoreSplitTest, RandomConvDistancesAreTwoCoreSafe) {
  std::mt19937 rng(kSeed);
  int built = 0, oneCoreUnsafe = 0;
  while (built < kRandomConvs) {
    int64_t r = 2 * pick(rng, 0, 1) + 1, stride = pick(rng, 1, 2);
    int64_t pad = pick(rng, 0, 1) * (r / 2);
    int64_t h = pick(rng, 2, kMaxSpatial), w = pick(rng, 1, kMaxSpatial);
    PatternResult conv =
        conv2d(h, w, pick(rng, 1, kMaxChannelSegments), r, r, stride, stride,
               pad, pad, pad, pad, pick(rng, 1, kMaxChannelSegments));
    if (!conv.ok())
      continue;
    ++built;
    SCOPED_TRACE("conv " + std::to_string(h) + "x" + std::to_string(w) + " r" +
                 std::to_string(r) + " s" + std::to_string(stride));
    KernelPattern delayed = *conv;
    delayed.freeDelay = kTwoCoreFreeDelay;
    ASSERT_FALSE(validate(delayed).has_value()) << *validate(delayed);
    std::vector<TimedEvent> events = timedEvents(*conv);
    OffsetSolution two = solveOffsets(delayed);
    EXPECT_TRUE(twoCoreSafe(events, conv->inputSegments, two.distance))
        << "d=" << two.distance;
    OffsetSolution one = solveOffsets(*conv);
    EXPECT_LE(one.footprintSegments, two.footprintSegments);
    oneCoreUnsafe +=
        !twoCoreSafe(events, conv->inputSegments, one.distance) ? 1 : 0;
  }
  // The rule bites: the one-core placement races on many of them.
  EXPECT_GT(oneCoreUnsafe, kRandomConvs / 4);
}

} // namespace
