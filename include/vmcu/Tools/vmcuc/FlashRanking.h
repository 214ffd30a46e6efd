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
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::vmcu {

/// A FlashPlan list a layer can join: int8 weights or compact code.
using PlanList = std::vector<std::string> FlashPlan::*;

/// Layers that join a smaller plan's list together: one layer, or the
/// layers that share one kernel function in a plan compared (choiceGroups;
/// they keep sharing it only if all of them join). After
/// joinCompactWithInt8, a compact candidate's bytes and cycles include
/// those of the int8 candidates it absorbed.
struct FlashCandidate {
  std::vector<std::string> kernels;
  /// The list of the plan they join.
  PlanList list;
  /// The bytes the smaller plan saves them; int8 weights can save none, or
  /// cost bytes, and still be what their compact code needs.
  int64_t savedBytes;
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

/// One layer in two plans: its code and tables in the larger and in the
/// smaller (measured), and the cycles the smaller is expected to cost it.
struct LayerTrade {
  int64_t largerBytes = 0;
  int64_t smallerBytes = 0;
  int64_t cycles = 0;
};

/// A candidate for `list` per choice group of the layers of `trades`
/// (choiceGroups over `sharings`), whatever it saves: the bytes its layers
/// save and the cycles they cost, none for a group whose bytes did not
/// change (its kernels did not change; for int8 weights: never widened).
std::vector<FlashCandidate>
groupCandidates(const llvm::StringMap<LayerTrade> &trades,
                ArrayRef<std::vector<std::vector<std::string>>> sharings,
                PlanList list);

/// A layer's compact code is measured, and its cycles estimated, on its
/// int8 weights (the trial with int8 weights everywhere); compact code over
/// widened weights is neither. So a compact candidate needs the int8
/// weights of every int8 candidate it overlaps; `candidates` hold one for
/// each group of layers, whatever it saves, and each int8 group lies in one
/// compact group. Compact code absorbs (bytes and cycles summed, the
/// candidates removed) the int8 candidates that save no bytes, then,
/// dearest first, those that cost more cycles per byte than it does with
/// what it absorbed; the others rank before it. Compact code that saves no
/// bytes with what it must absorb is removed, and so are int8 candidates
/// that save none. No int8 candidate may overlap two compact candidates
/// (asserted).
void joinCompactWithInt8(std::vector<FlashCandidate> &candidates);

/// Sorts `candidates` fewest cycles lost per byte saved first (each must
/// save bytes, as joinCompactWithInt8 leaves them); at one price int8 weights
/// before compact code, then by layer names.
void rankCandidates(std::vector<FlashCandidate> &candidates);

/// The plan that takes the first `taken` of `ranked`, with the int8
/// weights each compact candidate needs, its compact kernels unrolling
/// `compactLevels` loop levels (those they were measured at).
FlashPlan planOf(ArrayRef<FlashCandidate> ranked, size_t taken,
                 unsigned compactLevels);

/// `taken`, the first candidates of a ranking (after joinCompactWithInt8),
/// whose plan has `spareBytes` below its budget, without those the spare
/// bytes cover, dearest per byte first (a large candidate taken last can
/// leave cheaper ones before it unneeded); int8 weights a kept compact
/// candidate needs stay (a compact candidate ranks after the int8 ones it
/// did not absorb, so it is decided on first).
std::vector<FlashCandidate> dropUnneeded(ArrayRef<FlashCandidate> taken,
                                         int64_t spareBytes);

} // namespace mlir::vmcu

#endif // VMCU_TOOLS_VMCUC_FLASHRANKING_H
