//===- FlashRanking.h - rank a flash budget's per-layer choices -*- C++ -*-===//
//
// The choices a flash budget may make for smaller flash (int8 weights,
// compact code), each for a layer or for layers that share one kernel
// function, with the bytes it saves (measured on trial objects) and the
// cycles it costs (cost model), ranked fewest cycles per byte first.
// Functions of plain values: the trials that measure them are in
// FlashBudget.cpp.
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
/// the layers that share one kernel function in either plan compared
/// (choiceGroups; they keep sharing it only if all of them join). After
/// joinCompactWithInt8, a compact candidate's bytes and cycles include
/// those of the int8 candidates it absorbed.
struct FlashCandidate {
  std::vector<std::string> kernels;
  /// The list of the plan they join.
  PlanList list;
  uint64_t savedBytes;
  /// The cycles the smaller plan is expected to cost them.
  int64_t cycles;
  /// For compact code: the layers whose int8 weights it needs, its own and
  /// those of every int8 candidate it overlaps (joinCompactWithInt8).
  std::vector<std::string> int8Kernels = {};
};

/// The layers in the groups that take a choice together: those that share
/// a kernel function in any of `sharings` (each a list of functions' kernel
/// names; groups that overlap are joined), and each other layer alone.
/// Names not in `layers` are ignored; groups and their layers are sorted by
/// name.
std::vector<std::vector<std::string>>
choiceGroups(ArrayRef<StringRef> layers,
             ArrayRef<std::vector<std::vector<std::string>>> sharings);

/// A layer's compact code is measured, and its cycles estimated, on its
/// int8 weights (the trial with int8 weights everywhere); compact code over
/// widened weights is neither. So a compact candidate needs the int8
/// weights of its own layers and of every int8 candidate it overlaps. It
/// absorbs those (bytes and cycles summed, the candidates removed) that
/// cost more cycles per byte than it does with what it absorbed, dearest
/// first; the others rank before it. Cheapest compact code goes first.
/// Not priced (known limits): the int8 weights of its own layers that
/// have no int8 candidate (widening them saved no bytes), and an int8
/// candidate a cheaper compact candidate absorbed first.
void joinCompactWithInt8(std::vector<FlashCandidate> &candidates);

/// Sorts `candidates` fewest cycles lost per byte saved first (each must
/// save bytes); at one price int8 weights before compact code, then by
/// layer names.
void rankCandidates(std::vector<FlashCandidate> &candidates);

/// The plan that takes the first `taken` of `ranked`, with the int8
/// weights each compact candidate needs.
FlashPlan planOf(ArrayRef<FlashCandidate> ranked, size_t taken);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_FLASHRANKING_H
