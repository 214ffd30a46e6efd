//===- OffsetSolver.cpp - Segment offset solver ---------------------------===//
//
// Input segment x forbids d = o - x for every output o first stored before x
// is freed. One pass collects these sets as intervals; the gaps are safe.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Analysis/OffsetSolver.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>

using namespace mlir::vmcu::analysis;

int64_t mlir::vmcu::analysis::spanForDistance(int64_t inputSegments,
                                              int64_t outputSegments,
                                              int64_t distance) {
  return std::max(inputSegments, outputSegments - distance) +
         std::max<int64_t>(0, distance);
}

int64_t mlir::vmcu::analysis::footprintForDistance(const KernelPattern &pattern,
                                                   int64_t distance) {
  return spanForDistance(pattern.inputSegments, pattern.outputSegments,
                         distance) +
         pattern.workspaceSegments;
}

bool mlir::vmcu::analysis::isBetterDistance(const KernelPattern &pattern,
                                            int64_t a, int64_t b) {
  int64_t footprintA = footprintForDistance(pattern, a);
  int64_t footprintB = footprintForDistance(pattern, b);
  if (footprintA != footprintB)
    return footprintA < footprintB;
  if (std::llabs(a) != std::llabs(b))
    return std::llabs(a) < std::llabs(b);
  return a < b;
}

namespace {

/// Disjoint half-open runs [start, end) of integers, keyed by start.
class RunSet {
public:
  /// Adds `value`, which must not be in the set.
  void insert(int64_t value) {
    auto next = runs.lower_bound(value);
    bool joinsNext = next != runs.end() && next->first == value + 1;
    if (next != runs.begin()) {
      auto prev = std::prev(next);
      if (prev->second == value) {
        prev->second = joinsNext ? next->second : value + 1;
        if (joinsNext)
          runs.erase(next);
        return;
      }
    }
    int64_t end = value + 1;
    if (joinsNext) {
      end = next->second;
      runs.erase(next);
    }
    runs.emplace(value, end);
  }

  const std::map<int64_t, int64_t> &get() const { return runs; }

private:
  std::map<int64_t, int64_t> runs;
};

/// Collects forbidden intervals from runs of consecutive freed inputs.
class ForbiddenCollector {
public:
  explicit ForbiddenCollector(std::vector<DistanceInterval> &out)
      : intervals(out) {}

  /// Input x was freed after exactly the outputs currently in `stored`.
  void addFree(int64_t x, const RunSet &stored) {
    if (pending && x == runHi + 1) {
      runHi = x;
      return;
    }
    if (pending && x == runLo - 1) {
      runLo = x;
      return;
    }
    flush(stored);
    pending = true;
    runLo = runHi = x;
  }

  /// Emits the pending run; call before `stored` changes.
  void flush(const RunSet &stored) {
    if (!pending)
      return;
    pending = false;
    emit(runLo, runHi, stored);
  }

  /// Inputs [xLo, xHi] conflict with every output in `stored`.
  void emit(int64_t xLo, int64_t xHi, const RunSet &stored) {
    for (const auto &[start, end] : stored.get())
      intervals.push_back(DistanceInterval{start - xHi, end - 1 - xLo});
  }

private:
  std::vector<DistanceInterval> &intervals;
  bool pending = false;
  int64_t runLo = 0;
  int64_t runHi = 0;
};

} // namespace

namespace {

/// Collects the forbidden distances from a pattern's events, in order.
class ForbiddenDistanceWalk {
public:
  explicit ForbiddenDistanceWalk(const KernelPattern &pattern)
      : freed(pattern.inputSegments, false),
        stored(pattern.outputSegments, false), collector(intervals) {}

  void operator()(AccessKind kind, TensorRole role, int64_t addr) {
    int64_t numInputs = static_cast<int64_t>(freed.size());
    int64_t numOutputs = static_cast<int64_t>(stored.size());
    if (kind == AccessKind::Store && role == TensorRole::Output) {
      if (addr < 0 || addr >= numOutputs || stored[addr])
        return;
      collector.flush(storedRuns);
      stored[addr] = true;
      storedRuns.insert(addr);
      return;
    }
    if (kind == AccessKind::Free && role == TensorRole::Input) {
      if (addr < 0 || addr >= numInputs || freed[addr])
        return;
      freed[addr] = true;
      collector.addFree(addr, storedRuns);
    }
  }

  /// The intervals, sorted and merged, after the last event.
  std::vector<DistanceInterval> finish() {
    collector.flush(storedRuns);
    emitNeverFreed();
    std::sort(intervals.begin(), intervals.end(),
              [](const DistanceInterval &a, const DistanceInterval &b) {
                return a.lo < b.lo;
              });
    std::vector<DistanceInterval> merged;
    for (const DistanceInterval &interval : intervals) {
      if (!merged.empty() && interval.lo <= merged.back().hi + 1) {
        merged.back().hi = std::max(merged.back().hi, interval.hi);
        continue;
      }
      merged.push_back(interval);
    }
    return merged;
  }

private:
  /// Never-freed inputs stay live past every store.
  void emitNeverFreed() {
    int64_t numInputs = static_cast<int64_t>(freed.size());
    for (int64_t x = 0; x < numInputs;) {
      if (freed[x]) {
        ++x;
        continue;
      }
      int64_t end = x;
      while (end < numInputs && !freed[end])
        ++end;
      collector.emit(x, end - 1, storedRuns);
      x = end;
    }
  }

  std::vector<bool> freed, stored;
  RunSet storedRuns;
  std::vector<DistanceInterval> intervals;
  ForbiddenCollector collector;
};

} // namespace

std::vector<DistanceInterval>
mlir::vmcu::analysis::computeForbiddenDistances(const KernelPattern &pattern) {
  ForbiddenDistanceWalk distances(pattern);
  forEachEvent(pattern, std::ref(distances));
  return distances.finish();
}

CheckedDistances mlir::vmcu::analysis::validateAndComputeForbiddenDistances(
    const KernelPattern &pattern) {
  if (std::optional<std::string> error = validateStructure(pattern))
    return {error, {}};
  EventChecker check(pattern);
  ForbiddenDistanceWalk distances(pattern);
  forEachEvent(pattern, [&](AccessKind kind, TensorRole role, int64_t addr) {
    check(kind, role, addr);
    distances(kind, role, addr);
  });
  if (check.error())
    return {check.error(), {}};
  return {std::nullopt, distances.finish()};
}

OffsetSolution
mlir::vmcu::analysis::solveOffsets(const KernelPattern &pattern) {
  // Forbidden distances lie in [1 - I, O - 1], so -I and O are safe.
  std::vector<DistanceInterval> forbidden = computeForbiddenDistances(pattern);
  int64_t best = pattern.outputSegments;
  auto consider = [&](int64_t lo, int64_t hi) {
    if (lo > hi)
      return;
    // The footprint is non-increasing below 0 and non-decreasing above.
    int64_t candidate = std::clamp<int64_t>(0, lo, hi);
    if (isBetterDistance(pattern, candidate, best))
      best = candidate;
  };
  int64_t cursor = -pattern.inputSegments;
  for (const DistanceInterval &interval : forbidden) {
    consider(cursor, interval.lo - 1);
    cursor = std::max(cursor, interval.hi + 1);
  }
  consider(cursor, pattern.outputSegments);
  return OffsetSolution{
      best, footprintForDistance(pattern, best),
      spanForDistance(pattern.inputSegments, pattern.outputSegments, best)};
}
