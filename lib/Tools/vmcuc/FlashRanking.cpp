//===- FlashRanking.cpp - rank a flash budget's per-layer choices ---------===//
//
// Groups layers that share a kernel function, ties compact code to the
// int8 weights it was measured on, and orders the candidates by cycles
// per byte saved.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Tools/vmcuc/FlashRanking.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cassert>
#include <optional>

using namespace mlir::vmcu;

std::vector<std::vector<std::string>> mlir::vmcu::choiceGroups(
    ArrayRef<StringRef> layers,
    ArrayRef<std::vector<std::vector<std::string>>> sharings) {
  llvm::EquivalenceClasses<StringRef> classes;
  for (StringRef layer : layers)
    classes.insert(layer);
  for (const std::vector<std::vector<std::string>> &sharing : sharings)
    for (const std::vector<std::string> &kernels : sharing) {
      std::optional<StringRef> first;
      for (StringRef kernel : kernels) {
        if (!classes.contains(kernel))
          continue;
        if (first)
          classes.unionSets(*first, kernel);
        else
          first = kernel;
      }
    }
  SmallVector<StringRef> sorted(layers);
  llvm::sort(sorted);
  std::vector<std::vector<std::string>> groups;
  llvm::DenseMap<StringRef, size_t> groupOfLeader;
  for (StringRef layer : sorted) {
    auto [it, inserted] =
        groupOfLeader.try_emplace(classes.getLeaderValue(layer), groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].push_back(layer.str());
  }
  return groups;
}

std::vector<FlashCandidate> mlir::vmcu::groupCandidates(
    const llvm::StringMap<LayerTrade> &trades,
    ArrayRef<std::vector<std::vector<std::string>>> sharings, PlanList list) {
  SmallVector<StringRef> layers;
  for (const auto &entry : trades)
    layers.push_back(entry.getKey());
  std::vector<FlashCandidate> candidates;
  for (std::vector<std::string> &group : choiceGroups(layers, sharings)) {
    FlashCandidate &candidate =
        candidates.emplace_back(FlashCandidate{{}, list, 0, 0});
    for (const std::string &layer : group) {
      const LayerTrade &trade = trades.at(layer);
      candidate.savedBytes += trade.largerBytes - trade.smallerBytes;
      candidate.cycles += trade.cycles;
    }
    // Per group, not per layer: a shared function's code counts in one of
    // its layers, whose others can keep their bytes and still change.
    if (candidate.savedBytes == 0)
      candidate.cycles = 0;
    candidate.kernels = std::move(group);
  }
  return candidates;
}

/// Whether `a` costs fewer cycles per byte saved than `b`.
static bool cheaperPerByte(const FlashCandidate &a, const FlashCandidate &b) {
  assert(a.savedBytes > 0 && b.savedBytes > 0 && "a candidate saves bytes");
  // a.cycles / a.saved < b.cycles / b.saved, without division.
  return static_cast<__int128>(a.cycles) * b.savedBytes <
         static_cast<__int128>(b.cycles) * a.savedBytes;
}

/// Whether `a` and `b` name a layer in common.
static bool overlaps(const FlashCandidate &a, const FlashCandidate &b) {
  return llvm::any_of(a.kernels, [&](const std::string &kernel) {
    return llvm::is_contained(b.kernels, kernel);
  });
}

/// Whether `candidate` gives layers int8 weights (else compact code).
static bool isInt8(const FlashCandidate &candidate) {
  return candidate.list == &FlashPlan::int8WeightKernels;
}

/// Adds `int8`'s bytes and cycles to `compact`'s.
static void addPrice(FlashCandidate &compact, const FlashCandidate &int8) {
  compact.savedBytes += int8.savedBytes;
  compact.cycles += int8.cycles;
}

/// Whether `candidate` saves bytes on its own, so it can be ranked.
static bool savesBytes(const FlashCandidate &candidate) {
  return candidate.savedBytes > 0;
}

/// The int8 candidates `compact` overlaps; records their layers, and its
/// own, in its int8Kernels.
static std::vector<size_t>
int8CandidatesOf(FlashCandidate &compact,
                 llvm::ArrayRef<FlashCandidate> candidates) {
  std::vector<size_t> overlapped;
  llvm::append_range(compact.int8Kernels, compact.kernels);
  for (auto [index, int8] : llvm::enumerate(candidates)) {
    if (!isInt8(int8) || !overlaps(compact, int8))
      continue;
    llvm::append_range(compact.int8Kernels, int8.kernels);
    overlapped.push_back(index);
  }
  llvm::sort(compact.int8Kernels);
  compact.int8Kernels.erase(llvm::unique(compact.int8Kernels),
                            compact.int8Kernels.end());
  return overlapped;
}

/// Ties `compact` to the int8 candidates it overlaps (no other compact
/// candidate does): adds the price of those that save no bytes (never
/// ranked on their own), then, if it still saves bytes, absorbs, dearest
/// per byte first, those that cost more per byte than it does with what it
/// absorbed so far (the others rank before it), and marks them in
/// `absorbed`.
static void tieToInt8(FlashCandidate &compact,
                      llvm::ArrayRef<FlashCandidate> candidates,
                      std::vector<bool> &absorbed) {
  std::vector<size_t> needed;
  for (size_t index : int8CandidatesOf(compact, candidates)) {
    if (!savesBytes(candidates[index]))
      addPrice(compact, candidates[index]);
    else
      needed.push_back(index);
  }
  if (!savesBytes(compact))
    return;
  llvm::stable_sort(needed, [&](size_t a, size_t b) {
    return cheaperPerByte(candidates[b], candidates[a]);
  });
  for (size_t index : needed) {
    if (!cheaperPerByte(compact, candidates[index]))
      break;
    addPrice(compact, candidates[index]);
    absorbed[index] = true;
  }
}

/// Whether no int8 candidate overlaps two compact candidates.
[[maybe_unused]] static bool
eachInt8InOneCompact(llvm::ArrayRef<FlashCandidate> candidates) {
  for (const FlashCandidate &int8 : candidates)
    if (isInt8(int8) && llvm::count_if(candidates, [&](const auto &other) {
                          return !isInt8(other) && overlaps(int8, other);
                        }) > 1)
      return false;
  return true;
}

void mlir::vmcu::joinCompactWithInt8(std::vector<FlashCandidate> &candidates) {
  assert(eachInt8InOneCompact(candidates) &&
         "an int8 candidate lies in one compact candidate's layers");
  std::vector<bool> absorbed(candidates.size(), false);
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    if (isInt8(candidate) || !savesBytes(candidate))
      continue;
    FlashCandidate compact = candidate;
    tieToInt8(compact, candidates, absorbed);
    candidates[index] = std::move(compact);
  }
  // Compact code that cannot pay for its int8 weights is no choice, nor
  // are int8 weights that save no bytes.
  std::vector<FlashCandidate> kept;
  for (auto [index, candidate] : llvm::enumerate(candidates))
    if (!absorbed[index] && savesBytes(candidate))
      kept.push_back(std::move(candidate));
  candidates = std::move(kept);
}

void mlir::vmcu::rankCandidates(std::vector<FlashCandidate> &candidates) {
  std::sort(candidates.begin(), candidates.end(),
            [](const FlashCandidate &a, const FlashCandidate &b) {
              if (cheaperPerByte(a, b))
                return true;
              if (cheaperPerByte(b, a))
                return false;
              if (isInt8(a) != isInt8(b))
                return isInt8(a);
              return a.kernels < b.kernels;
            });
}

FlashPlan mlir::vmcu::planOf(ArrayRef<FlashCandidate> ranked, size_t taken,
                             unsigned compactLevels) {
  FlashPlan plan;
  plan.compactLevels = compactLevels;
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

std::vector<FlashCandidate>
mlir::vmcu::dropUnneeded(ArrayRef<FlashCandidate> taken, int64_t spareBytes) {
  std::vector<FlashCandidate> kept;
  llvm::StringSet<> neededInt8;
  auto isNeeded = [&](const std::string &kernel) {
    return neededInt8.contains(kernel);
  };
  for (const FlashCandidate &candidate : llvm::reverse(taken)) {
    bool neededByCompact =
        isInt8(candidate) && llvm::any_of(candidate.kernels, isNeeded);
    if (!neededByCompact && candidate.savedBytes <= spareBytes) {
      spareBytes -= candidate.savedBytes;
      continue;
    }
    if (!isInt8(candidate))
      neededInt8.insert_range(candidate.int8Kernels);
    kept.push_back(candidate);
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}
