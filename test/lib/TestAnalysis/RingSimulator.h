//===- RingSimulator.h - Brute-force circular pool simulator ----*- C++ -*-===//
//
// Replays a kernel's events on a tagged circular pool to check a distance
// independently of the offset solver.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TESTANALYSIS_RINGSIMULATOR_H
#define VMCU_TESTANALYSIS_RINGSIMULATOR_H

#include "vmcu/Analysis/AccessPattern.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::vmcu::analysis {

struct SimulationResult {
  bool ok = false;
  /// The first violation, naming its event; empty when ok.
  std::string message;
  /// Input segments never freed.
  int64_t unfreedInputs = 0;
};

/// Pool layout for distance d and `poolSegments` slots: b_In = max(0, d),
/// b_Out = b_In - d, the workspace right after In u Out, all modulo the pool.
/// Each slot holds (role, index, live). Load needs its own live segment,
/// Store must not land on another live segment, Free marks dead; at the end
/// every output segment must be present.
class RingSimulator {
public:
  explicit RingSimulator(const KernelPattern &pattern);

  /// Replays all events; `poolSegments` defaults to the footprint for d.
  SimulationResult
  run(int64_t distance,
      std::optional<int64_t> poolSegments = std::nullopt) const;

private:
  int64_t inputSegments;
  int64_t outputSegments;
  int64_t workspaceSegments;
  std::vector<Event> events;
};

/// One-shot RingSimulator(pattern).run(distance, poolSegments).
SimulationResult
simulateRing(const KernelPattern &pattern, int64_t distance,
             std::optional<int64_t> poolSegments = std::nullopt);

} // namespace mlir::vmcu::analysis

#endif // VMCU_TESTANALYSIS_RINGSIMULATOR_H
