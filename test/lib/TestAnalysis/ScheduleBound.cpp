//===- ScheduleBound.cpp - Memory bounds over all output orders -----------===//
//
// Live-bytes model of a window layer, the exact minimum over all output
// orders (dynamic program over subsets) and the closed-form lower bound.
//
//===----------------------------------------------------------------------===//

#include "TestAnalysis/ScheduleBound.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

using namespace mlir::vmcu::analysis;

namespace {

/// lastPosition value of an input that no output reads: released before the
/// first store, like the builders' up-front frees.
constexpr int64_t kNeverRead = -1;
/// The halo theorem's refinement to m + 1 is proven for pad 1 and m >= 2.
constexpr int64_t kUnitPad = 1;
constexpr int64_t kMinRefinedSide = 2;

int64_t numInputs(const WindowLayer &layer) {
  return layer.inHeight * layer.inWidth;
}

int64_t numOutputs(const WindowLayer &layer) {
  return layer.outHeight * layer.outWidth;
}

/// Calls fn(input) for every input pixel output `o` reads.
template <typename Fn>
void forEachWindowInput(const WindowLayer &layer, int64_t o, Fn fn) {
  int64_t y = o / layer.outWidth, x = o % layer.outWidth;
  int64_t top = y * layer.stride - layer.pad;
  int64_t left = x * layer.stride - layer.pad;
  for (int64_t r = std::max<int64_t>(0, top);
       r < std::min(layer.inHeight, top + layer.kernel); ++r)
    for (int64_t c = std::max<int64_t>(0, left);
         c < std::min(layer.inWidth, left + layer.kernel); ++c)
      fn(r * layer.inWidth + c);
}

} // namespace

WindowLayer mlir::vmcu::analysis::makeWindowLayer(
    int64_t inHeight, int64_t inWidth, int64_t inChannels, int64_t outChannels,
    int64_t kernel, int64_t stride, int64_t pad) {
  WindowLayer layer;
  layer.inHeight = inHeight;
  layer.inWidth = inWidth;
  layer.inChannels = inChannels;
  layer.outChannels = outChannels;
  layer.kernel = kernel;
  layer.stride = stride;
  layer.pad = pad;
  if (stride > 0) {
    layer.outHeight = (inHeight + 2 * pad - kernel) / stride + 1;
    layer.outWidth = (inWidth + 2 * pad - kernel) / stride + 1;
  }
  return layer;
}

std::optional<std::string>
mlir::vmcu::analysis::validate(const WindowLayer &layer) {
  if (layer.inHeight < 1 || layer.inWidth < 1 || layer.inChannels < 1 ||
      layer.outChannels < 1 || layer.kernel < 1 || layer.stride < 1)
    return std::string("sizes, channels, kernel and stride must be positive");
  if (layer.pad < 0 || layer.pad >= layer.kernel)
    return std::string("pad must be in [0, kernel)");
  if (layer.inHeight + 2 * layer.pad < layer.kernel ||
      layer.inWidth + 2 * layer.pad < layer.kernel)
    return std::string("the window is larger than the padded input");
  WindowLayer tosa =
      makeWindowLayer(layer.inHeight, layer.inWidth, layer.inChannels,
                      layer.outChannels, layer.kernel, layer.stride, layer.pad);
  if (layer.outHeight != tosa.outHeight || layer.outWidth != tosa.outWidth)
    return "output must be " + std::to_string(tosa.outHeight) + "x" +
           std::to_string(tosa.outWidth);
  return std::nullopt;
}

std::optional<int64_t>
mlir::vmcu::analysis::peakForOrder(const WindowLayer &layer,
                                   const std::vector<int64_t> &order,
                                   ReleasePoint release) {
  assert(!validate(layer) && "invalid window layer");
  int64_t n = numOutputs(layer);
  if (static_cast<int64_t>(order.size()) != n)
    return std::nullopt;
  std::vector<int64_t> position(n, -1);
  for (int64_t t = 0; t < n; ++t) {
    if (order[t] < 0 || order[t] >= n || position[order[t]] >= 0)
      return std::nullopt;
    position[order[t]] = t;
  }

  // Position of each input's last reader.
  std::vector<int64_t> lastPosition(numInputs(layer), kNeverRead);
  for (int64_t o = 0; o < n; ++o)
    forEachWindowInput(layer, o, [&](int64_t i) {
      lastPosition[i] = std::max(lastPosition[i], position[o]);
    });
  // readFrom[t]: inputs whose last reader sits at position >= t.
  std::vector<int64_t> readFrom(n + 1, 0);
  for (int64_t last : lastPosition)
    if (last != kNeverRead)
      ++readFrom[last];
  for (int64_t t = n - 1; t >= 0; --t)
    readFrom[t] += readFrom[t + 1];

  // Step 0: the whole input. Step t >= 1 (o_t at position t-1 stored): live
  // inputs are read at position >= t, or >= t-1 if released after the store.
  int64_t peak = layer.inChannels * numInputs(layer);
  for (int64_t t = 1; t <= n; ++t) {
    int64_t firstPending = release == ReleasePoint::BeforeStore ? t : t - 1;
    peak = std::max(peak, layer.inChannels * readFrom[firstPending] +
                              layer.outChannels * t);
  }
  return peak;
}

int64_t mlir::vmcu::analysis::rowMajorPeak(const WindowLayer &layer,
                                           ReleasePoint release) {
  std::vector<int64_t> order(numOutputs(layer));
  for (int64_t o = 0; o < static_cast<int64_t>(order.size()); ++o)
    order[o] = o;
  return *peakForOrder(layer, order, release);
}

std::optional<int64_t>
mlir::vmcu::analysis::exactMinPeak(const WindowLayer &layer,
                                   ReleasePoint release,
                                   std::vector<int64_t> *bestOrder) {
  assert(!validate(layer) && "invalid window layer");
  int64_t n = numOutputs(layer);
  if (n > kMaxExactOutputPixels)
    return std::nullopt;
  const uint32_t numSets = uint32_t(1) << n;
  const uint32_t all = numSets - 1;

  // freed[S]: inputs whose readers all lie in S (subset-sum transform of the
  // reader-set histogram).
  std::vector<int32_t> freed(numSets, 0);
  std::vector<uint32_t> readers(numInputs(layer), 0);
  for (int64_t o = 0; o < n; ++o)
    forEachWindowInput(layer, o,
                       [&](int64_t i) { readers[i] |= uint32_t(1) << o; });
  for (uint32_t set : readers)
    ++freed[set];
  for (int64_t bit = 0; bit < n; ++bit)
    for (uint32_t set = 0; set < numSets; ++set)
      if (set & (uint32_t(1) << bit))
        freed[set] += freed[set ^ (uint32_t(1) << bit)];

  const int64_t inputBytes = layer.inChannels * numInputs(layer);
  // Live bytes once the set `stored` is stored and its last-use inputs are
  // released. With AfterStore, the step that stores o lives at
  // releasedAfter(S \ {o}) + Cout.
  auto releasedAfter = [&](uint32_t stored) {
    return layer.inChannels * (numInputs(layer) - freed[stored]) +
           layer.outChannels * __builtin_popcount(stored);
  };
  auto stepCost = [&](uint32_t stored, uint32_t before) {
    return release == ReleasePoint::BeforeStore
               ? releasedAfter(stored)
               : releasedAfter(before) + layer.outChannels;
  };

  // best[S]: the smallest max-so-far over the orders that store S first.
  // Subsets of S are smaller integers, so increasing order is topological.
  std::vector<int64_t> best(numSets, 0);
  best[0] = inputBytes;
  for (uint32_t set = 1; set < numSets; ++set) {
    int64_t value = INT64_MAX;
    for (uint32_t rest = set; rest; rest &= rest - 1) {
      uint32_t before = set ^ (rest & -rest);
      value = std::min(value, std::max(best[before], stepCost(set, before)));
    }
    best[set] = value;
  }

  if (bestOrder) {
    // Walk back from the full set, each time removing an output that can be
    // stored last at the optimum.
    bestOrder->assign(n, 0);
    uint32_t set = all;
    for (int64_t t = n - 1; t >= 0; --t) {
      for (uint32_t rest = set; rest; rest &= rest - 1) {
        uint32_t last = rest & -rest;
        uint32_t before = set ^ last;
        if (std::max(best[before], stepCost(set, before)) == best[set]) {
          (*bestOrder)[t] = __builtin_ctz(last);
          set = before;
          break;
        }
      }
    }
  }
  return best[all];
}

bool mlir::vmcu::analysis::haloTheoremApplies(const WindowLayer &layer) {
  return layer.stride == 1 && layer.pad >= 1 &&
         layer.kernel == 2 * layer.pad + 1 &&
         layer.inChannels == layer.outChannels &&
         layer.outHeight == layer.inHeight && layer.outWidth == layer.inWidth;
}

int64_t mlir::vmcu::analysis::anyOrderLowerBound(const WindowLayer &layer,
                                                 ReleasePoint release) {
  assert(!validate(layer) && "invalid window layer");
  int64_t bound = std::max(layer.inChannels * numInputs(layer),
                           layer.outChannels * numOutputs(layer));
  if (!haloTheoremApplies(layer))
    return bound;
  // Some step stores `excess` more outputs than it has released inputs.
  int64_t m = std::min(layer.inHeight, layer.inWidth);
  int64_t excess = std::min(layer.pad, m - 1) * m;
  if (layer.pad == kUnitPad && m >= kMinRefinedSide)
    excess = m + 1;
  if (excess == 0)
    return bound;
  // That step is not the last one, and AfterStore's next step holds one
  // more output with the same inputs.
  if (release == ReleasePoint::AfterStore)
    excess += 1;
  return layer.inChannels * (numInputs(layer) + excess);
}
