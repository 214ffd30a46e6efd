//===- RandomLayers.h - Draws for the random-layer unit tests ---*- C++ -*-===//
//
// What the unit tests that compare the solver, the pattern builders and the
// two-core rule on random small layers share: the draw and the channel
// extent of their tensors.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TESTANALYSIS_RANDOMLAYERS_H
#define VMCU_TESTANALYSIS_RANDOMLAYERS_H

#include <cstdint>
#include <random>

namespace mlir::vmcu::analysis {

/// Channel segments a random layer's tensors have at most.
constexpr int64_t kMaxChannelSegments = 3;

/// A uniform draw from [lo, hi].
inline int64_t pick(std::mt19937 &rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

} // namespace mlir::vmcu::analysis

#endif // VMCU_TESTANALYSIS_RANDOMLAYERS_H
