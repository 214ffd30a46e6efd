//===- FlashRanking.h - rank a flash budget's per-layer choices -*- C++ -*-===//
//
// The choices a flash budget may make for smaller flash (int8 weights,
// compact code), each for a layer or for layers that share one kernel
// function, with the bytes it saves (measured on trial objects) and the
// cycles it costs (cost model), ranked fewest cycles per byte first. Plain
// C++: the trials that measure them are in FlashBudget.cpp.
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

/// Layers whose kernels take less flash in a smaller plan: one layer, or
/// the layers that share one kernel function in the larger plan (which
/// keep sharing it only if all of them join).
struct FlashCandidate {
  std::vector<std::string> kernels;
  /// The list of the plan they join.
  PlanList list;
  uint64_t savedBytes;
  /// The cycles the smaller plan is expected to cost them.
  int64_t cycles;
  /// For compact code: the layers whose int8 weights it needs, those of
  /// every int8 candidate it overlaps (joinCompactWithInt8).
  std::vector<std::string> int8Kernels = {};
};

/// A layer's compact code is measured, and its cycles estimated, on its
/// int8 weights (the trial with int8 weights everywhere); compact code over
/// widened weights is neither. So a compact candidate needs the int8
/// weights of every int8 candidate it overlaps, and takes them with it
/// (bytes and cycles summed, those candidates removed) where it costs
/// fewer cycles per byte than they do together; otherwise they rank first.
void joinCompactWithInt8(std::vector<FlashCandidate> &candidates);

/// Sorts `candidates` fewest cycles lost per byte saved first; int8
/// weights before compact code at the same price.
void rankCandidates(std::vector<FlashCandidate> &candidates);

/// The plan that takes the first `taken` of `ranked`, with the int8
/// weights each compact candidate needs.
FlashPlan planOf(ArrayRef<FlashCandidate> ranked, size_t taken);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_FLASHRANKING_H
