//===- ScheduleBoundTest.cpp - Tests for the any-order memory bounds ------===//
//
// The live-bytes model against a naive replay, the dynamic program against
// brute force over permutations, and anyOrderLowerBound <= exactMinPeak <=
// rowMajorPeak on every tiny shape.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/ScheduleBound.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>

using namespace mlir::vmcu::analysis;

namespace {

constexpr uint32_t kSeed = 0x4a10bu;
constexpr int64_t kMaxTinySide = 5;
constexpr std::array<int64_t, 2> kTinyKernels = {3, 5};
constexpr std::array<int64_t, 2> kTinyStrides = {1, 2};
constexpr std::array<int64_t, 3> kTinyChannels = {1, 2, 3};
constexpr std::array<ReleasePoint, 2> kReleases = {ReleasePoint::BeforeStore,
                                                   ReleasePoint::AfterStore};
/// Largest output count for the all-permutations check (7! orders).
constexpr int64_t kMaxBruteForceOutputs = 7;
constexpr int64_t kMaxClosedFormSide = 12;
constexpr int64_t kMaxHaloPad = 3;
constexpr int kRandomOrdersPerShape = 20;

std::string describe(const WindowLayer &layer, ReleasePoint release) {
  return std::to_string(layer.inHeight) + "x" + std::to_string(layer.inWidth) +
         "x" + std::to_string(layer.inChannels) + " -> " +
         std::to_string(layer.outHeight) + "x" +
         std::to_string(layer.outWidth) + "x" +
         std::to_string(layer.outChannels) + " R" +
         std::to_string(layer.kernel) + " s" + std::to_string(layer.stride) +
         " p" + std::to_string(layer.pad) +
         (release == ReleasePoint::BeforeStore ? " before-store"
                                               : " after-store");
}

/// Calls fn(layer) for every valid tiny layer of the sweep.
template <typename Fn> void forEachTinyLayer(Fn fn) {
  for (int64_t h = 1; h <= kMaxTinySide; ++h)
    for (int64_t w = 1; w <= kMaxTinySide; ++w)
      for (int64_t r : kTinyKernels)
        for (int64_t s : kTinyStrides)
          for (int64_t p = 0; p <= r / 2; ++p)
            for (int64_t cin : kTinyChannels)
              for (int64_t cout : kTinyChannels) {
                WindowLayer layer = makeWindowLayer(h, w, cin, cout, r, s, p);
                if (!validate(layer))
                  fn(layer);
              }
}

std::vector<int64_t> identityOrder(const WindowLayer &layer) {
  std::vector<int64_t> order(layer.outHeight * layer.outWidth);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

std::vector<int64_t> columnMajorOrder(const WindowLayer &layer) {
  std::vector<int64_t> order;
  for (int64_t x = 0; x < layer.outWidth; ++x)
    for (int64_t y = 0; y < layer.outHeight; ++y)
      order.push_back(y * layer.outWidth + x);
  return order;
}

/// Anti-diagonals y + x = 0, 1, ..., each top to bottom.
std::vector<int64_t> antiDiagonalOrder(const WindowLayer &layer) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < layer.outHeight + layer.outWidth - 1; ++d)
    for (int64_t y = 0; y < layer.outHeight; ++y)
      if (d - y >= 0 && d - y < layer.outWidth)
        order.push_back(y * layer.outWidth + d - y);
  return order;
}

/// L-shaped shells towards the bottom-right corner: outputs farther from it
/// (Chebyshev distance) first, row-major within a shell.
std::vector<int64_t> cornerShellOrder(const WindowLayer &layer) {
  std::vector<int64_t> order = identityOrder(layer);
  auto distance = [&](int64_t o) {
    return std::max(layer.outHeight - 1 - o / layer.outWidth,
                    layer.outWidth - 1 - o % layer.outWidth);
  };
  // Farthest first; equals in row-major order.
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    int64_t x = distance(a), y = distance(b);
    return x != y ? x > y : a < b;
  });
  return order;
}

/// Independent replay: after each store, test every (output, input) pair by
/// coordinates and count the inputs some unreleased output still reads.
int64_t naivePeak(const WindowLayer &layer, const std::vector<int64_t> &order,
                  ReleasePoint release) {
  auto reads = [&](int64_t o, int64_t i) {
    int64_t y = o / layer.outWidth, x = o % layer.outWidth;
    int64_t r = i / layer.inWidth, c = i % layer.inWidth;
    int64_t dr = r - (y * layer.stride - layer.pad);
    int64_t dc = c - (x * layer.stride - layer.pad);
    return dr >= 0 && dr < layer.kernel && dc >= 0 && dc < layer.kernel;
  };
  int64_t inputs = layer.inHeight * layer.inWidth;
  int64_t n = static_cast<int64_t>(order.size());
  int64_t peak = layer.inChannels * inputs;
  for (int64_t t = 1; t <= n; ++t) {
    int64_t firstUnreleased = release == ReleasePoint::BeforeStore ? t : t - 1;
    int64_t live = 0;
    for (int64_t i = 0; i < inputs; ++i) {
      bool needed = false;
      for (int64_t k = firstUnreleased; k < n && !needed; ++k)
        needed = reads(order[k], i);
      live += needed;
    }
    peak = std::max(peak, layer.inChannels * live + layer.outChannels * t);
  }
  return peak;
}

/// The halo theorem's bound written out on its own, in bytes.
int64_t haloBound(int64_t h, int64_t w, int64_t c, int64_t pad,
                  ReleasePoint release) {
  int64_t m = std::min(h, w);
  int64_t excess = std::min(pad, m - 1) * m;
  if (pad == 1 && m >= 2)
    excess = m + 1;
  if (excess > 0 && release == ReleasePoint::AfterStore)
    ++excess;
  return c * (h * w + excess);
}

TEST(ScheduleBoundTest, ValidatesLayersAndOrders) {
  WindowLayer s1 = makeWindowLayer(20, 20, 16, 16, 3, 1, 1);
  EXPECT_FALSE(validate(s1).has_value());
  EXPECT_EQ(s1.outHeight, 20);
  WindowLayer strided = makeWindowLayer(9, 8, 1, 1, 3, 2, 0);
  EXPECT_EQ(strided.outHeight, 4);
  EXPECT_EQ(strided.outWidth, 3);

  WindowLayer bad = s1;
  bad.outWidth = 19;
  EXPECT_TRUE(validate(bad).has_value());
  EXPECT_TRUE(validate(makeWindowLayer(4, 4, 1, 1, 3, 1, 3)).has_value());
  EXPECT_TRUE(validate(makeWindowLayer(1, 4, 1, 1, 3, 1, 0)).has_value());
  EXPECT_TRUE(validate(makeWindowLayer(4, 4, 0, 1, 3, 1, 1)).has_value());

  WindowLayer tiny = makeWindowLayer(2, 2, 1, 1, 3, 1, 1);
  EXPECT_FALSE(peakForOrder(tiny, {0, 1, 2}).has_value());
  EXPECT_FALSE(peakForOrder(tiny, {0, 1, 2, 2}).has_value());
  EXPECT_FALSE(peakForOrder(tiny, {0, 1, 2, 4}).has_value());
  EXPECT_TRUE(peakForOrder(tiny, {3, 1, 2, 0}).has_value());
  EXPECT_FALSE(exactMinPeak(s1).has_value());
}

TEST(ScheduleBoundTest, PeakForOrderMatchesNaiveReplay) {
  std::mt19937 rng(kSeed);
  forEachTinyLayer([&](const WindowLayer &layer) {
    std::vector<int64_t> order = identityOrder(layer);
    std::shuffle(order.begin(), order.end(), rng);
    for (ReleasePoint release : kReleases) {
      SCOPED_TRACE(describe(layer, release));
      for (const std::vector<int64_t> &o :
           {identityOrder(layer), columnMajorOrder(layer), order})
        EXPECT_EQ(*peakForOrder(layer, o, release),
                  naivePeak(layer, o, release));
    }
  });
}

TEST(ScheduleBoundTest, DynamicProgramMatchesAllPermutations) {
  int checked = 0;
  forEachTinyLayer([&](const WindowLayer &layer) {
    if (layer.outHeight * layer.outWidth > kMaxBruteForceOutputs)
      return;
    for (ReleasePoint release : kReleases) {
      SCOPED_TRACE(describe(layer, release));
      std::vector<int64_t> order = identityOrder(layer);
      int64_t best = INT64_MAX;
      do
        best = std::min(best, *peakForOrder(layer, order, release));
      while (std::next_permutation(order.begin(), order.end()));
      std::vector<int64_t> bestOrder;
      EXPECT_EQ(exactMinPeak(layer, release, &bestOrder), best);
      EXPECT_EQ(peakForOrder(layer, bestOrder, release), best);
      ++checked;
    }
  });
  EXPECT_GT(checked, 0);
}

/// Every tiny layer, both release points.
TEST(ScheduleBoundTest, BoundIsBelowExactIsBelowRowMajorOnTinyShapes) {
  int solved = 0, atCap = 0;
  forEachTinyLayer([&](const WindowLayer &layer) {
    for (ReleasePoint release : kReleases) {
      SCOPED_TRACE(describe(layer, release));
      std::vector<int64_t> bestOrder;
      std::optional<int64_t> exact = exactMinPeak(layer, release, &bestOrder);
      int64_t outputs = layer.outHeight * layer.outWidth;
      if (outputs > kMaxExactOutputPixels) {
        EXPECT_FALSE(exact.has_value());
        continue;
      }
      ASSERT_TRUE(exact.has_value());
      ++solved;
      atCap += outputs == kMaxExactOutputPixels;
      EXPECT_EQ(peakForOrder(layer, bestOrder, release), exact);
      EXPECT_LE(anyOrderLowerBound(layer, release), *exact);
      EXPECT_LE(*exact, rowMajorPeak(layer, release));
      EXPECT_GE(*exact,
                std::max(layer.inChannels * layer.inHeight * layer.inWidth,
                         layer.outChannels * outputs));
    }
  });
  EXPECT_GT(solved, 0);
  EXPECT_GT(atCap, 0);
}

/// Stride 1, same grid: the halo theorem, and for pad 1 its tightness.
TEST(ScheduleBoundTest, HaloTheoremOnTinyShapes) {
  int checked = 0;
  forEachTinyLayer([&](const WindowLayer &layer) {
    if (!haloTheoremApplies(layer))
      return;
    for (ReleasePoint release : kReleases) {
      SCOPED_TRACE(describe(layer, release));
      std::optional<int64_t> exact = exactMinPeak(layer, release);
      if (!exact)
        continue;
      ++checked;
      int64_t h = layer.inHeight, w = layer.inWidth, c = layer.inChannels;
      int64_t bound = haloBound(h, w, c, layer.pad, release);
      EXPECT_EQ(anyOrderLowerBound(layer, release), bound);
      EXPECT_GE(*exact, bound);
      if (std::min(h, w) >= 2) {
        // The form first conjectured, C * (H*W + min(H, W)).
        EXPECT_GE(*exact, c * (h * w + std::min(h, w)));
        if (layer.pad == 1) {
          EXPECT_EQ(*exact, bound);
        }
      }
    }
  });
  EXPECT_GT(checked, 0);
}

TEST(ScheduleBoundTest, HaloTheoremDoesNotApplyElsewhere) {
  EXPECT_TRUE(haloTheoremApplies(makeWindowLayer(4, 4, 2, 2, 3, 1, 1)));
  EXPECT_FALSE(haloTheoremApplies(makeWindowLayer(4, 4, 2, 3, 3, 1, 1)));
  EXPECT_FALSE(haloTheoremApplies(makeWindowLayer(5, 5, 2, 2, 3, 2, 1)));
  EXPECT_FALSE(haloTheoremApplies(makeWindowLayer(5, 5, 2, 2, 3, 1, 0)));
  EXPECT_FALSE(haloTheoremApplies(makeWindowLayer(1, 1, 2, 2, 1, 1, 0)));
  // Without the theorem the bound is max(in, out).
  WindowLayer widen = makeWindowLayer(6, 6, 2, 3, 3, 1, 1);
  EXPECT_EQ(anyOrderLowerBound(widen), 6 * 6 * 3);
}

/// Row-major stores C*(H*W + p*(W+1)) bytes at its peak, C more after-store.
TEST(ScheduleBoundTest, RowMajorClosedForm) {
  for (int64_t p = 1; p <= kMaxHaloPad; ++p)
    for (int64_t h = p + 1; h <= kMaxClosedFormSide; ++h)
      for (int64_t w = p + 1; w <= kMaxClosedFormSide; ++w)
        for (int64_t c : kTinyChannels) {
          WindowLayer layer = makeWindowLayer(h, w, c, c, 2 * p + 1, 1, p);
          SCOPED_TRACE(describe(layer, ReleasePoint::BeforeStore));
          int64_t closed = c * (h * w + p * (w + 1));
          EXPECT_EQ(rowMajorPeak(layer), closed);
          EXPECT_EQ(rowMajorPeak(layer, ReleasePoint::AfterStore), closed + c);
        }
  // S1: 20x20x16, R3, what the offset solver places.
  WindowLayer s1 = makeWindowLayer(20, 20, 16, 16, 3, 1, 1);
  EXPECT_EQ(rowMajorPeak(s1), 6736);
  EXPECT_EQ(rowMajorPeak(s1, ReleasePoint::AfterStore), 6752);
}

/// Shapes too large for the dynamic program: no structured or random order
/// beats the bound, and for pad 1 the better of row- and column-major
/// attains it.
TEST(ScheduleBoundTest, NoOrderBeatsTheBoundOnLargerShapes) {
  std::mt19937 rng(kSeed);
  const std::array<std::array<int64_t, 2>, 4> shapes = {
      {{6, 6}, {7, 9}, {10, 8}, {12, 12}}};
  for (const auto &shape : shapes)
    for (int64_t p = 1; p <= kMaxHaloPad; ++p)
      for (ReleasePoint release : kReleases) {
        int64_t h = shape[0], w = shape[1];
        WindowLayer layer = makeWindowLayer(h, w, 2, 2, 2 * p + 1, 1, p);
        SCOPED_TRACE(describe(layer, release));
        int64_t bound = anyOrderLowerBound(layer, release);
        std::vector<std::vector<int64_t>> orders = {
            identityOrder(layer), columnMajorOrder(layer),
            antiDiagonalOrder(layer), cornerShellOrder(layer)};
        // Snake, spiral, 2x2 blocks, Z-order.
        std::vector<int64_t> snake, spiral, blocks;
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x)
            snake.push_back(y * w + (y % 2 ? w - 1 - x : x));
        for (int64_t top = 0, bottom = h - 1, left = 0, right = w - 1;
             top <= bottom && left <= right; ++top, --bottom, ++left, --right) {
          for (int64_t x = left; x <= right; ++x)
            spiral.push_back(top * w + x);
          for (int64_t y = top + 1; y <= bottom; ++y)
            spiral.push_back(y * w + right);
          for (int64_t x = right - 1; x >= left && bottom > top; --x)
            spiral.push_back(bottom * w + x);
          for (int64_t y = bottom - 1; y > top && left < right; --y)
            spiral.push_back(y * w + left);
        }
        for (int64_t by = 0; by < h; by += 2)
          for (int64_t bx = 0; bx < w; bx += 2)
            for (int64_t y = by; y < std::min(h, by + 2); ++y)
              for (int64_t x = bx; x < std::min(w, bx + 2); ++x)
                blocks.push_back(y * w + x);
        std::vector<int64_t> zOrder = identityOrder(layer);
        auto morton = [&](int64_t o) {
          int64_t y = o / w, x = o % w, key = 0;
          for (int bit = 0; bit < 8; ++bit)
            key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1)
                                                       << (2 * bit + 1);
          return key;
        };
        std::sort(zOrder.begin(), zOrder.end(),
                  [&](int64_t a, int64_t b) { return morton(a) < morton(b); });
        for (auto *o : {&snake, &spiral, &blocks, &zOrder})
          orders.push_back(*o);
        for (int k = 0; k < kRandomOrdersPerShape; ++k) {
          std::vector<int64_t> random = identityOrder(layer);
          std::shuffle(random.begin(), random.end(), rng);
          orders.push_back(random);
        }
        int64_t best = INT64_MAX;
        for (const std::vector<int64_t> &order : orders) {
          std::optional<int64_t> peak = peakForOrder(layer, order, release);
          ASSERT_TRUE(peak.has_value());
          EXPECT_GE(*peak, bound);
          best = std::min(best, *peak);
        }
        if (p == 1) {
          EXPECT_EQ(best, bound);
        }
      }
}

/// Row-major is not always optimal (findings of the sweep above).
TEST(ScheduleBoundTest, RowMajorIsNotAlwaysOptimal) {
  // Wider than tall: column-major wins.
  WindowLayer wide = makeWindowLayer(2, 3, 1, 1, 3, 1, 1);
  EXPECT_EQ(rowMajorPeak(wide), 10);
  EXPECT_EQ(peakForOrder(wide, columnMajorOrder(wide)), 9);
  EXPECT_EQ(exactMinPeak(wide), 9);

  // Cin > Cout: the optimum beats both row- and column-major.
  WindowLayer shrink = makeWindowLayer(3, 3, 2, 1, 3, 1, 1);
  std::vector<int64_t> bestOrder;
  EXPECT_EQ(exactMinPeak(shrink, ReleasePoint::BeforeStore, &bestOrder), 21);
  EXPECT_EQ(rowMajorPeak(shrink), 22);
  EXPECT_EQ(peakForOrder(shrink, columnMajorOrder(shrink)), 22);
  EXPECT_EQ(peakForOrder(shrink, bestOrder), 21);

  // Stride 2, clipped windows: the second output reads every input, so
  // storing it first is cheaper.
  WindowLayer clipped = makeWindowLayer(1, 4, 1, 1, 5, 2, 2);
  ASSERT_EQ(clipped.outWidth, 2);
  EXPECT_EQ(rowMajorPeak(clipped), 5);
  EXPECT_EQ(peakForOrder(clipped, {1, 0}), 4);
  EXPECT_EQ(exactMinPeak(clipped), 4);

  // Table 2 shapes with Cin != Cout, where the halo theorem is silent: other
  // orders hold fewer live bytes than row-major, and fewer than the paper's
  // accounting (2,576 and 46,896 bytes).
  WindowLayer s3 = makeWindowLayer(10, 10, 24, 16, 3, 1, 1);
  EXPECT_EQ(rowMajorPeak(s3), 2576);
  EXPECT_EQ(peakForOrder(s3, antiDiagonalOrder(s3)), 2512);
  WindowLayer b5 = makeWindowLayer(44, 44, 16, 24, 5, 1, 2);
  EXPECT_EQ(rowMajorPeak(b5), 47568);
  EXPECT_EQ(peakForOrder(b5, cornerShellOrder(b5)), 46680);
}

/// The stride-1, Cin == Cout modules of the paper's Table 2 (S2, S8 and B8
/// repeat the shapes of S1, S7 and B7); bench/table2.sh prints the same
/// bounds. The paper's accounting is max(in, out) + (R*R + 2) * C.
TEST(ScheduleBoundTest, Table2Modules) {
  struct Module {
    const char *name;
    int64_t h, c, r, bound;
    bool paperBelowBound;
  };
  const Module modules[] = {
      {"S1", 20, 16, 3, 6736, true},   {"S4", 10, 24, 3, 2664, false},
      {"S5", 5, 40, 3, 1240, false},   {"S6", 5, 48, 3, 1488, false},
      {"S7", 3, 96, 3, 1248, false},   {"B3", 44, 16, 3, 31696, true},
      {"B4", 44, 16, 7, 33088, true},  {"B7", 22, 24, 5, 12672, true},
      {"B10", 11, 40, 7, 6160, false}, {"B11", 11, 40, 5, 5720, false},
      {"B13", 11, 48, 7, 7392, false}, {"B14", 11, 48, 3, 6384, true},
      {"B16", 6, 96, 7, 5184, false}};
  for (const Module &module : modules) {
    SCOPED_TRACE(module.name);
    WindowLayer layer = makeWindowLayer(module.h, module.h, module.c, module.c,
                                        module.r, 1, module.r / 2);
    ASSERT_TRUE(haloTheoremApplies(layer));
    EXPECT_EQ(anyOrderLowerBound(layer), module.bound);
    int64_t paper =
        module.c * module.h * module.h + (module.r * module.r + 2) * module.c;
    EXPECT_EQ(paper < module.bound, module.paperBelowBound);
  }
}

} // namespace
