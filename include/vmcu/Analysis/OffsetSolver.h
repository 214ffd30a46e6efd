//===- OffsetSolver.h - Segment offset solver -------------------*- C++ -*-===//
//
// Exact solver for the distance between the input and output base pointers
// of one kernel in the circular segment pool (vMCU Section 4).
//
//===----------------------------------------------------------------------===//
//
// Problem. Input segment x lives at pool slot b_In + x, output segment o at
// b_Out + o; d = b_In - b_Out. The workspace is a separate region of
// workspaceSegments slots and never conflicts. Input segment x is live from
// the start until its Free event (forever if never freed). A Store of output
// o at event time t is unsafe iff input segment x = o - d is in range and
// live at t; d is safe iff no Store is unsafe.
//
// Footprint(d) = max(I, O - d) + max(0, d) + workspace, with I and O the
// input and output sizes. The solution is the safe d of minimum footprint,
// ties broken by the smaller |d|, then the smaller d. It is exact.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_ANALYSIS_OFFSETSOLVER_H
#define VMCU_ANALYSIS_OFFSETSOLVER_H

#include "vmcu/Analysis/AccessPattern.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::vmcu::analysis {

struct OffsetSolution {
  /// b_In - b_Out, in segments; may exceed the input size or be negative.
  int64_t distance;
  /// Span of In u Out plus the workspace.
  int64_t footprintSegments;
  /// Span of In u Out.
  int64_t spanSegments;
};

/// Closed interval [lo, hi] of distances.
struct DistanceInterval {
  int64_t lo;
  int64_t hi;
};

/// Span of In u Out for distance d: max(I, O - d) + max(0, d).
int64_t spanForDistance(int64_t inputSegments, int64_t outputSegments,
                        int64_t distance);

/// Span plus workspace for distance d.
int64_t footprintForDistance(const KernelPattern &pattern, int64_t distance);

/// True iff `a` is preferred to `b`: smaller footprint, then smaller |d|,
/// then smaller d.
bool isBetterDistance(const KernelPattern &pattern, int64_t a, int64_t b);

/// The unsafe distances as sorted, disjoint, non-adjacent closed intervals.
/// They lie within [1 - I, O - 1]. The pattern must pass validate().
std::vector<DistanceInterval>
computeForbiddenDistances(const KernelPattern &pattern);

/// validate() and computeForbiddenDistances() in one walk of the events:
/// the error, or the forbidden distances of a valid pattern.
struct CheckedDistances {
  std::optional<std::string> error;
  std::vector<DistanceInterval> forbidden;
};
CheckedDistances
validateAndComputeForbiddenDistances(const KernelPattern &pattern);

/// The optimal safe distance. The pattern must pass validate().
OffsetSolution solveOffsets(const KernelPattern &pattern);

} // namespace mlir::vmcu::analysis

#endif // VMCU_ANALYSIS_OFFSETSOLVER_H
