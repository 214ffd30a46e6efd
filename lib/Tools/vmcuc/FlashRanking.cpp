//===- FlashRanking.cpp - rank a flash budget's per-layer choices ---------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir::vmcu;

/// Whether `a` costs fewer cycles per byte saved than `b`.
static bool cheaperPerByte(const FlashCandidate &a, const FlashCandidate &b) {
  // a.cycles / a.saved < b.cycles / b.saved, without division.
  return static_cast<__int128>(a.cycles) * b.savedBytes <
         static_cast<__int128>(b.cycles) * a.savedBytes;
}

static bool overlaps(const FlashCandidate &a, const FlashCandidate &b) {
  return llvm::any_of(a.kernels, [&](const std::string &kernel) {
    return llvm::is_contained(b.kernels, kernel);
  });
}

static bool isInt8(const FlashCandidate &candidate) {
  return candidate.list == &FlashPlan::int8WeightKernels;
}

void mlir::vmcu::joinCompactWithInt8(std::vector<FlashCandidate> &candidates) {
  std::vector<bool> absorbed(candidates.size(), false);
  for (FlashCandidate &compact : candidates) {
    if (isInt8(compact))
      continue;
    // The int8 candidates it overlaps, together.
    FlashCandidate needed{{}, &FlashPlan::int8WeightKernels, 0, 0};
    std::vector<size_t> indices;
    for (auto [index, int8] : llvm::enumerate(candidates)) {
      if (!isInt8(int8) || !overlaps(compact, int8))
        continue;
      llvm::append_range(compact.int8Kernels, int8.kernels);
      if (absorbed[index])
        continue;
      indices.push_back(index);
      needed.savedBytes += int8.savedBytes;
      needed.cycles += int8.cycles;
    }
    if (indices.empty() || !cheaperPerByte(compact, needed))
      continue;
    compact.savedBytes += needed.savedBytes;
    compact.cycles += needed.cycles;
    for (size_t index : indices)
      absorbed[index] = true;
  }
  size_t index = 0;
  llvm::erase_if(candidates,
                 [&](const FlashCandidate &) { return absorbed[index++]; });
}

void mlir::vmcu::rankCandidates(std::vector<FlashCandidate> &candidates) {
  std::sort(candidates.begin(), candidates.end(),
            [](const FlashCandidate &a, const FlashCandidate &b) {
              if (cheaperPerByte(a, b) || cheaperPerByte(b, a))
                return cheaperPerByte(a, b);
              if (a.kernels != b.kernels)
                return a.kernels < b.kernels;
              return isInt8(a) && !isInt8(b);
            });
}

FlashPlan mlir::vmcu::planOf(ArrayRef<FlashCandidate> ranked, size_t taken) {
  FlashPlan plan;
  llvm::StringSet<> int8;
  auto addInt8 = [&](const std::string &kernel) {
    if (int8.insert(kernel).second)
      plan.int8WeightKernels.push_back(kernel);
  };
  for (const FlashCandidate &candidate : ranked.take_front(taken)) {
    if (isInt8(candidate)) {
      llvm::for_each(candidate.kernels, addInt8);
      continue;
    }
    llvm::append_range(plan.compactKernels, candidate.kernels);
    llvm::for_each(candidate.int8Kernels, addInt8);
  }
  return plan;
}
