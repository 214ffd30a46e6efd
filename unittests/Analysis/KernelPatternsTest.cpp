//===- KernelPatternsTest.cpp - Tests for the kernel pattern builders -----===//
//
// Checks the builders against naive window enumeration and the free schedule
// rules: every input freed exactly once, at its last use, never reloaded.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/KernelPatterns.h"
#include "TestAnalysis/RandomLayers.h"
#include "TestAnalysis/RingSimulator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <random>

using namespace mlir::vmcu::analysis;

namespace {

constexpr uint32_t kSeed = 0xb17e5u;
constexpr int kRandomShapes = 300;
constexpr int64_t kMaxSpatial = 9;
constexpr int64_t kMaxStride = 3;
constexpr std::array<int64_t, 3> kConvKernels = {1, 3, 5};
constexpr std::array<int64_t, 3> kBottleneckKernels = {3, 5, 7};

int64_t pickKernel(std::mt19937 &rng, const std::array<int64_t, 3> &values) {
  return values[pick(rng, 0, static_cast<int64_t>(values.size()) - 1)];
}

/// Input loads since the previous output store, one group per output store.
std::vector<std::vector<int64_t>> loadsPerStore(const KernelPattern &pattern,
                                                std::vector<int64_t> &stores) {
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> current;
  forEachEvent(pattern, [&](AccessKind kind, TensorRole role, int64_t addr) {
    if (kind == AccessKind::Load && role == TensorRole::Input)
      current.push_back(addr);
    if (kind == AccessKind::Store && role == TensorRole::Output) {
      std::sort(current.begin(), current.end());
      groups.push_back(current);
      stores.push_back(addr);
      current.clear();
    }
  });
  return groups;
}

/// Every input is freed exactly once, never used after, at its last use: no
/// output store lies between its last load and its free, and inputs never
/// loaded are freed before the first output store.
void expectFreeSchedule(const KernelPattern &pattern) {
  ASSERT_FALSE(validate(pattern).has_value()) << *validate(pattern);
  int64_t numInputs = pattern.inputSegments;
  std::vector<int64_t> frees(numInputs, 0);
  std::vector<int64_t> storesAtLastLoad(numInputs, -1);
  std::vector<int64_t> storesAtFree(numInputs, -1);
  int64_t stores = 0;
  forEachEvent(pattern, [&](AccessKind kind, TensorRole role, int64_t addr) {
    if (role == TensorRole::Output && kind == AccessKind::Store)
      ++stores;
    if (role != TensorRole::Input)
      return;
    if (kind == AccessKind::Load)
      storesAtLastLoad[addr] = stores;
    if (kind == AccessKind::Free) {
      ++frees[addr];
      storesAtFree[addr] = stores;
    }
  });
  for (int64_t x = 0; x < numInputs; ++x) {
    EXPECT_EQ(frees[x], 1) << "input " << x;
    int64_t expected = std::max<int64_t>(storesAtLastLoad[x], 0);
    EXPECT_EQ(storesAtFree[x], expected) << "input " << x << " freed late";
  }

  // Independently: replay with the output far away from the input.
  SimulationResult result = simulateRing(pattern, -numInputs);
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_EQ(result.unfreedInputs, 0);
}

//===----------------------------------------------------------------------===//
// Parameter checks and shapes
//===----------------------------------------------------------------------===//

TEST(KernelPatternsTest, RejectsInvalidParameters) {
  EXPECT_FALSE(fullyConnected(0, 1, 1).ok());
  EXPECT_FALSE(conv2d(2, 2, 1, 3, 3, 1, 1, 0, 0, 0, 0, 1).ok());
  EXPECT_FALSE(conv2d(4, 4, 1, 3, 3, 0, 1, 0, 0, 0, 0, 1).ok());
  EXPECT_FALSE(conv2d(4, 4, 1, 3, 3, 1, 1, -1, 0, 0, 0, 1).ok());
  EXPECT_FALSE(depthwiseConv2d(4, 4, 0, 3, 3, 1, 1, 1, 1, 1, 1).ok());
  EXPECT_FALSE(bottleneck(4, 4, 1, 1, 4, {1, 1, 1}, false).ok());
  PatternResult strided = bottleneck(8, 8, 1, 1, 3, {1, 2, 1}, true);
  EXPECT_FALSE(strided.ok());
  EXPECT_NE(strided.error.find("residual"), std::string::npos);
  EXPECT_FALSE(bottleneck(8, 8, 1, 2, 3, {1, 1, 1}, true).ok());
  EXPECT_TRUE(bottleneck(1, 1, 1, 1, 3, {2, 2, 2}, true).ok());
}

TEST(KernelPatternsTest, Shapes) {
  // TOSA: P = (H + padTop + padBottom - R) / stride + 1.
  PatternResult conv = conv2d(7, 6, 2, 3, 5, 2, 1, 1, 2, 0, 1, 3);
  ASSERT_TRUE(conv.ok()) << conv.error;
  EXPECT_EQ(conv->inputSegments, 7 * 6 * 2);
  EXPECT_EQ(conv->outputSegments, 3 * 5 * 3);
  EXPECT_EQ(conv->workspaceSegments, 0);

  PatternResult dw = depthwiseConv2d(9, 9, 2, 3, 3, 2, 2, 1, 1, 1, 1);
  ASSERT_TRUE(dw.ok()) << dw.error;
  EXPECT_EQ(dw->outputSegments, 5 * 5 * 2);

  // 176 -> 88 (pw stride 2) -> 88 (dw) -> 88.
  PatternResult b1 = bottleneck(176, 176, 3, 8, 3, {2, 1, 1}, false);
  ASSERT_TRUE(b1.ok()) << b1.error;
  EXPECT_EQ(b1->outputSegments, 88 * 88 * 8);
  EXPECT_EQ(b1->workspaceSegments, 3 * 3 + 2);
  // 9 -> 9 -> 5 (dw stride 2) -> 3 (pw stride 2).
  PatternResult b = bottleneck(9, 9, 1, 1, 7, {1, 2, 2}, false);
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_EQ(b->outputSegments, 3 * 3);
}

TEST(KernelPatternsTest, FullyConnectedFollowsFigure4) {
  PatternResult fc = fullyConnected(1, 2, 2);
  ASSERT_TRUE(fc.ok()) << fc.error;
  std::vector<Event> events = collectEvents(*fc);
  const std::vector<std::pair<AccessKind, int64_t>> expected = {
      {AccessKind::Load, 0}, {AccessKind::Load, 1},  {AccessKind::Store, 0},
      {AccessKind::Load, 0}, {AccessKind::Load, 1},  {AccessKind::Free, 0},
      {AccessKind::Free, 1}, {AccessKind::Store, 1},
  };
  ASSERT_EQ(events.size(), expected.size());
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].kind, expected[i].first) << i;
    EXPECT_EQ(events[i].address, expected[i].second) << i;
  }
}

//===----------------------------------------------------------------------===//
// Random shapes against naive enumeration
//===----------------------------------------------------------------------===//

/// Naive in-bounds window of one output along one axis of a plain conv.
std::vector<int64_t> window(int64_t out, int64_t stride, int64_t pad,
                            int64_t kernel, int64_t extent) {
  std::vector<int64_t> indices;
  for (int64_t r = 0; r < kernel; ++r) {
    int64_t y = out * stride + r - pad;
    if (y >= 0 && y < extent)
      indices.push_back(y);
  }
  return indices;
}

TEST(KernelPatternsTest, RandomConvLoadsWindowsAndFreesAtLastUse) {
  std::mt19937 rng(kSeed);
  for (int i = 0; i < kRandomShapes; ++i) {
    int64_t r = pickKernel(rng, kConvKernels),
            s = pickKernel(rng, kConvKernels);
    int64_t sh = pick(rng, 1, kMaxStride), sw = pick(rng, 1, kMaxStride);
    bool padded = pick(rng, 0, 1) == 1;
    int64_t pt = padded ? pick(rng, 0, r - 1) : 0;
    int64_t pb = padded ? pick(rng, 0, r - 1) : 0;
    int64_t pl = padded ? pick(rng, 0, s - 1) : 0;
    int64_t pr = padded ? pick(rng, 0, s - 1) : 0;
    int64_t h = pick(rng, std::max<int64_t>(1, r - pt - pb), kMaxSpatial);
    int64_t w = pick(rng, std::max<int64_t>(1, s - pl - pr), kMaxSpatial);
    int64_t c = pick(rng, 1, kMaxChannelSegments);
    int64_t k = pick(rng, 1, kMaxChannelSegments);
    PatternResult conv = conv2d(h, w, c, r, s, sh, sw, pt, pl, pb, pr, k);
    ASSERT_TRUE(conv.ok()) << conv.error;
    SCOPED_TRACE(::testing::Message()
                 << "conv " << h << "x" << w << "x" << c << " k" << r << "x"
                 << s << " s" << sh << "," << sw << " pad" << pt << "," << pl
                 << "," << pb << "," << pr << " -> " << k);
    expectFreeSchedule(*conv);

    int64_t p = (h + pt + pb - r) / sh + 1, q = (w + pl + pr - s) / sw + 1;
    std::vector<int64_t> stores;
    std::vector<std::vector<int64_t>> groups = loadsPerStore(*conv, stores);
    ASSERT_EQ(static_cast<int64_t>(groups.size()), p * q * k);
    for (int64_t o = 0; o < p * q * k; ++o) {
      EXPECT_EQ(stores[o], o);
      int64_t op = o / (q * k), oq = o / k % q;
      std::vector<int64_t> expected;
      for (int64_t y : window(op, sh, pt, r, h))
        for (int64_t x : window(oq, sw, pl, s, w))
          for (int64_t ci = 0; ci < c; ++ci)
            expected.push_back((y * w + x) * c + ci);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(groups[o], expected) << "output " << o;
    }
  }
}

TEST(KernelPatternsTest, RandomDepthwiseReadsOneChannel) {
  std::mt19937 rng(kSeed + 1);
  for (int i = 0; i < kRandomShapes; ++i) {
    int64_t r = pickKernel(rng, kBottleneckKernels);
    int64_t stride = pick(rng, 1, kMaxStride);
    int64_t pad = pick(rng, 0, r / 2);
    int64_t h = pick(rng, std::max<int64_t>(1, r - 2 * pad), kMaxSpatial);
    int64_t w = pick(rng, std::max<int64_t>(1, r - 2 * pad), kMaxSpatial);
    int64_t c = pick(rng, 1, kMaxChannelSegments);
    PatternResult dw =
        depthwiseConv2d(h, w, c, r, r, stride, stride, pad, pad, pad, pad);
    ASSERT_TRUE(dw.ok()) << dw.error;
    SCOPED_TRACE(::testing::Message()
                 << "dw " << h << "x" << w << "x" << c << " k" << r << " s"
                 << stride << " pad" << pad);
    expectFreeSchedule(*dw);

    int64_t p = (h + 2 * pad - r) / stride + 1;
    int64_t q = (w + 2 * pad - r) / stride + 1;
    std::vector<int64_t> stores;
    std::vector<std::vector<int64_t>> groups = loadsPerStore(*dw, stores);
    ASSERT_EQ(static_cast<int64_t>(groups.size()), p * q * c);
    for (int64_t o = 0; o < p * q * c; ++o) {
      int64_t op = o / (q * c), oq = o / c % q, oc = o % c;
      std::vector<int64_t> expected;
      for (int64_t y : window(op, stride, pad, r, h))
        for (int64_t x : window(oq, stride, pad, r, w))
          expected.push_back((y * w + x) * c + oc);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(groups[o], expected) << "output " << o;
    }
  }
}

/// Naive A rows read by bottleneck output row a.
std::vector<int64_t> bottleneckWindow(int64_t a, int64_t extent, int64_t r,
                                      const std::array<int64_t, 3> &strides) {
  int64_t expanded = (extent - 1) / strides[0] + 1;
  std::vector<int64_t> rows;
  for (int64_t t : window(a * strides[2], strides[1], r / 2, r, expanded))
    rows.push_back(t * strides[0]);
  return rows;
}

int64_t bottleneckExtent(int64_t extent, int64_t r,
                         const std::array<int64_t, 3> &strides) {
  int64_t expanded = (extent - 1) / strides[0] + 1;
  int64_t dw = (expanded + 2 * (r / 2) - r) / strides[1] + 1;
  return (dw - 1) / strides[2] + 1;
}

TEST(KernelPatternsTest, RandomBottleneckReadsFusedWindows) {
  std::mt19937 rng(kSeed + 2);
  for (int i = 0; i < kRandomShapes; ++i) {
    int64_t r = pickKernel(rng, kBottleneckKernels);
    std::array<int64_t, 3> strides = {pick(rng, 1, kMaxStride),
                                      pick(rng, 1, kMaxStride),
                                      pick(rng, 1, kMaxStride)};
    int64_t h = pick(rng, 1, kMaxSpatial), w = pick(rng, 1, kMaxSpatial);
    int64_t cin = pick(rng, 1, kMaxChannelSegments);
    int64_t cout = pick(rng, 1, kMaxChannelSegments);
    int64_t p = bottleneckExtent(h, r, strides);
    int64_t q = bottleneckExtent(w, r, strides);
    bool residual = p == h && q == w && pick(rng, 0, 1) == 1;
    if (residual)
      cout = cin;
    PatternResult block = bottleneck(h, w, cin, cout, r, strides, residual);
    ASSERT_TRUE(block.ok()) << block.error;
    SCOPED_TRACE(::testing::Message()
                 << "bottleneck " << h << "x" << w << "x" << cin << "->" << cout
                 << " k" << r << " s" << strides[0] << strides[1] << strides[2]
                 << " res" << residual);
    expectFreeSchedule(*block);
    ASSERT_EQ(block->outputSegments, p * q * cout);

    std::vector<int64_t> stores;
    std::vector<std::vector<int64_t>> groups = loadsPerStore(*block, stores);
    ASSERT_EQ(static_cast<int64_t>(groups.size()), p * q * cout);
    for (int64_t o = 0; o < p * q * cout; ++o) {
      if (o % cout != 0) {
        EXPECT_TRUE(groups[o].empty()) << "output " << o;
        continue;
      }
      int64_t a = o / (q * cout), b = o / cout % q;
      std::vector<int64_t> expected;
      for (int64_t y : bottleneckWindow(a, h, r, strides))
        for (int64_t x : bottleneckWindow(b, w, r, strides))
          for (int64_t ci = 0; ci < cin; ++ci)
            expected.push_back((y * w + x) * cin + ci);
      if (residual)
        for (int64_t ci = 0; ci < cin; ++ci)
          expected.push_back((a * w + b) * cin + ci);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(groups[o], expected) << "output " << o;
    }
  }
}

TEST(KernelPatternsTest, BottleneckUsesItsWorkspace) {
  constexpr int64_t kKernel = 3;
  PatternResult block = bottleneck(3, 3, 1, 2, kKernel, {1, 1, 1}, false);
  ASSERT_TRUE(block.ok()) << block.error;
  std::vector<int64_t> stores(block->workspaceSegments, 0);
  forEachEvent(*block, [&](AccessKind kind, TensorRole role, int64_t addr) {
    if (role == TensorRole::Workspace && kind == AccessKind::Store)
      ++stores[addr];
  });
  // The centre output of the 3x3 image sees the full window.
  for (int64_t slot = 0; slot < block->workspaceSegments; ++slot)
    EXPECT_GT(stores[slot], 0) << "slot " << slot;
  // Window position (0, 0) is in bounds for the 2x2 outputs with a, b >= 1.
  EXPECT_EQ(stores[0], 4);
}

TEST(KernelPatternsTest, RandomFullyConnectedFreesAtLastUse) {
  std::mt19937 rng(kSeed + 3);
  for (int i = 0; i < kRandomShapes; ++i) {
    int64_t m = pick(rng, 1, kMaxSpatial), k = pick(rng, 1, kMaxSpatial),
            n = pick(rng, 1, kMaxSpatial);
    PatternResult fc = fullyConnected(m, k, n);
    ASSERT_TRUE(fc.ok()) << fc.error;
    expectFreeSchedule(*fc);
  }
}

} // namespace

namespace {

/// The events of `body` by direct evaluation of every index at every
/// iteration: the walk's reference (forEachEvent steps innermost addresses
/// by addition and keeps constant bounds).
void directEvents(const std::vector<Node> &body, std::vector<int64_t> &ivs,
                  std::vector<Event> &events) {
  for (const Node &node : body) {
    if (!node.isLoop()) {
      const Access &access = node.access();
      int64_t address = 0;
      for (size_t d = 0; d < access.indices.size(); ++d)
        address += access.mapping[d] * evaluate(access.indices[d], ivs);
      events.push_back(Event{access.kind, access.role, address});
      continue;
    }
    const Loop &loop = node.loop();
    int64_t lo = evaluate(loop.lower.terms.front(), ivs);
    for (const AffineExpr &term : loop.lower.terms)
      lo = std::max(lo, evaluate(term, ivs));
    int64_t hi = evaluate(loop.upper.terms.front(), ivs);
    for (const AffineExpr &term : loop.upper.terms)
      hi = std::min(hi, evaluate(term, ivs));
    ivs.push_back(lo);
    for (int64_t iv = lo; iv < hi; iv += loop.step) {
      ivs.back() = iv;
      directEvents(loop.body, ivs, events);
    }
    ivs.pop_back();
  }
}

} // namespace

// A triangular nest (the inner loop's lower bound uses the outer iv), two
// indices per access, a step of 2, and an access between two loops: the
// walk's events are those of direct evaluation.
TEST(KernelPatternsTest, WalkMatchesDirectEvaluation) {
  Access load{AccessKind::Load,
              TensorRole::Input,
              {affineDim(0), affineDim(1, 2) + 1},
              {3, 1}};
  Access store{AccessKind::Store, TensorRole::Output, {affineDim(0)}, {1}};
  Loop inner{{{affineDim(0)}},
             {{affineConstant(9), affineDim(0) + 7}},
             2,
             {Node(load), Node(load)}};
  Loop outer{{{affineConstant(0)}},
             {{affineConstant(4)}},
             1,
             {Node(inner), Node(store)}};
  KernelPattern pattern;
  pattern.inputSegments = 64;
  pattern.outputSegments = 4;
  pattern.body = {Node(outer)};
  ASSERT_FALSE(validate(pattern).has_value()) << *validate(pattern);

  std::vector<Event> expected;
  std::vector<int64_t> ivs;
  directEvents(pattern.body, ivs, expected);
  std::vector<Event> events = collectEvents(pattern);
  ASSERT_EQ(events.size(), expected.size());
  EXPECT_GT(events.size(), 4u);
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].kind, expected[i].kind) << "event " << i;
    EXPECT_EQ(events[i].role, expected[i].role) << "event " << i;
    EXPECT_EQ(events[i].address, expected[i].address) << "event " << i;
  }
}
