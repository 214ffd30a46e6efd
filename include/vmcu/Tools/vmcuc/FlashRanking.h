//===- FlashRanking.h - rank a flash budget's per-layer choices -*- C++ -*-===//
//
// The layers a flash budget may make smaller (int8 weights, compact code),
// each with the bytes it saves (measured on trial objects) and the cycles
// it costs (cost model), ranked fewest cycles per byte first. Plain C++:
// the trials that measure them are in FlashBudget.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TOOLS_VMCUC_FLASHRANKING_H
#define VMCU_TOOLS_VMCUC_FLASHRANKING_H

#include "vmcu/Pipelines/Pipelines.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::vmcu {

/// A FlashPlan list a layer can join: int8 weights or compact code.
using PlanList = std::vector<std::string> FlashPlan::*;

/// A layer whose kernel takes less flash in a smaller plan.
struct FlashCandidate {
  std::string kernel;
  /// The list of the plan it joins.
  PlanList list;
  uint64_t savedBytes;
  /// The cycles the smaller plan is expected to cost it.
  int64_t cycles;
  /// Compact code that joins int8WeightKernels too (joinCompactWithInt8).
  bool withInt8Weights = false;
};

/// A layer's compact code is measured, and its cycles estimated, on its
/// int8 weights (the trial with int8 weights everywhere); compact code over
/// widened weights is neither. So where a layer's compact code costs fewer
/// cycles per byte than its int8 weights, the two become one candidate
/// (bytes and cycles summed); otherwise the ranking takes the int8 weights
/// first.
void joinCompactWithInt8(std::vector<FlashCandidate> &candidates);

/// Sorts `candidates` fewest cycles lost per byte saved first; a layer's
/// int8 weights before its compact code at the same price.
void rankCandidates(std::vector<FlashCandidate> &candidates);

/// The plan that takes the first `taken` of `ranked`.
FlashPlan planOf(ArrayRef<FlashCandidate> ranked, size_t taken);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_FLASHRANKING_H
