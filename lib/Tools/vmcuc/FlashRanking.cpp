//===- FlashRanking.cpp - rank a flash budget's per-layer choices ---------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir::vmcu;

/// Whether `a` costs fewer cycles per byte saved than `b`.
static bool cheaperPerByte(const FlashCandidate &a, const FlashCandidate &b) {
  // a.cycles / a.saved < b.cycles / b.saved, without division.
  return static_cast<__int128>(a.cycles) * b.savedBytes <
         static_cast<__int128>(b.cycles) * a.savedBytes;
}

void mlir::vmcu::joinCompactWithInt8(std::vector<FlashCandidate> &candidates) {
  llvm::StringMap<size_t> int8Of;
  for (auto [index, candidate] : llvm::enumerate(candidates))
    if (candidate.list == &FlashPlan::int8WeightKernels)
      int8Of[candidate.kernel] = index;
  std::vector<size_t> joined;
  for (FlashCandidate &candidate : candidates) {
    auto it = int8Of.find(candidate.kernel);
    if (candidate.list != &FlashPlan::compactKernels || it == int8Of.end())
      continue;
    const FlashCandidate &int8 = candidates[it->second];
    if (!cheaperPerByte(candidate, int8))
      continue;
    candidate.savedBytes += int8.savedBytes;
    candidate.cycles += int8.cycles;
    candidate.withInt8Weights = true;
    joined.push_back(it->second);
  }
  llvm::sort(joined);
  for (size_t index : llvm::reverse(joined))
    candidates.erase(candidates.begin() + index);
}

void mlir::vmcu::rankCandidates(std::vector<FlashCandidate> &candidates) {
  std::sort(candidates.begin(), candidates.end(),
            [](const FlashCandidate &a, const FlashCandidate &b) {
              if (cheaperPerByte(a, b) || cheaperPerByte(b, a))
                return cheaperPerByte(a, b);
              if (a.kernel != b.kernel)
                return a.kernel < b.kernel;
              // The same layer's int8 weights before its compact code.
              return a.list == &FlashPlan::int8WeightKernels &&
                     b.list != &FlashPlan::int8WeightKernels;
            });
}

FlashPlan mlir::vmcu::planOf(ArrayRef<FlashCandidate> ranked, size_t taken) {
  FlashPlan plan;
  for (const FlashCandidate &candidate : ranked.take_front(taken)) {
    (plan.*candidate.list).push_back(candidate.kernel);
    if (candidate.withInt8Weights)
      plan.int8WeightKernels.push_back(candidate.kernel);
  }
  return plan;
}
