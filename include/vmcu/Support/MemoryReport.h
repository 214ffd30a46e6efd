//===- MemoryReport.h - the arena placement as JSON and SVG -----*- C++ -*-===//
//
// The placement vmcu-solve-offsets computes, in bytes and without MLIR types,
// and its two renderings: the JSON memory report and an SVG picture of the
// ring over the layers.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_SUPPORT_MEMORYREPORT_H
#define VMCU_SUPPORT_MEMORYREPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::vmcu {

/// One tensor of the chain where it sits in the arena. It occupies
/// `[baseBytes, baseBytes + bytes)` modulo the arena size, so it may wrap.
struct ReportTensor {
  std::string name;
  int64_t baseBytes = 0;
  int64_t bytes = 0;
};

/// One kernel: it reads tensor `input` and writes tensor `output` (indices
/// into MemoryReport::tensors), both live while it runs.
struct ReportLayer {
  std::string name;
  std::string op;
  int64_t segmentBytes = 0;
  int64_t workspaceBytes = 0;
  int64_t distanceSegments = 0;
  int64_t footprintBytes = 0;
  int64_t tensorLevelBytes = 0;
  /// The kernel family the schedule chose (cost model's kind name).
  std::string schedule;
  /// MACs of the layer, and as executed (with recomputation).
  int64_t macs = 0;
  int64_t executedMacs = 0;
  /// Ring segments the cost model counts it loading and storing.
  int64_t ringAccesses = 0;
  /// The cost model's Cortex-M4 cycles.
  int64_t estimatedCycles = 0;
  /// The cycles it would add with int8 weights instead of widened ones.
  int64_t int8WeightCycles = 0;
  /// Widening was turned off for its weights (vmcu.kernel's int8_weights).
  bool int8Weights = false;
  /// Emitted for less code (vmcu.kernel's compact), and the cycles that
  /// would add (its compact_cycles).
  bool compact = false;
  int64_t compactCycles = 0;
  /// Its stack buffers (estimated; a stem's line buffer is among them).
  int64_t stackBytes = 0;
  unsigned input = 0;
  unsigned output = 0;
  /// Earlier tensors live while it runs: skip tensors it reads besides
  /// `input`, and ones a later kernel reads.
  SmallVector<unsigned> alsoLive;
  /// The skip tensors among them: residual ADDs folded into this kernel,
  /// whose epilogue reads them.
  SmallVector<unsigned> skips;
};

/// A residual block: the kernels from the one after the skip tensor's
/// producer (the block's first) to the one whose epilogue adds the skip
/// (`last`). With the ADD folded, the block needs the skip plus the
/// tensors each kernel reads and writes besides it, not three whole
/// tensors: `boundBytes` is the largest such sum over its kernels (the
/// last one's output counted only if the skip outlives it, else it is
/// stored over the skip), `footprintBytes` the largest footprint the
/// offset solver found, the difference the windows' halo.
struct ResidualBlock {
  unsigned first = 0;
  unsigned last = 0;
  unsigned skip = 0;
  int64_t boundBytes = 0;
  int64_t footprintBytes = 0;
  /// The same kernels' largest tensor-level need (whole tensors).
  int64_t tensorLevelBytes = 0;
};

struct MemoryReport {
  /// The arena: pool segments times the pool unit.
  int64_t peakRamBytes = 0;
  int64_t poolUnitBytes = 0;
  int64_t poolSegments = 0;
  /// What a whole-tensor planner needs for the same graph.
  int64_t tensorLevelBytes = 0;
  /// Max over layers of max(in, out).
  int64_t lowerBoundBytes = 0;
  SmallVector<ReportTensor> tensors;
  std::vector<ReportLayer> layers;

  /// The first layer with the largest footprint; -1 without layers.
  int64_t getPeakLayer() const;
};

/// The residual blocks of `report`, one per skip a kernel adds, in order.
SmallVector<ResidualBlock> getResidualBlocks(const MemoryReport &report);

/// A contiguous byte range `[begin, end)` of the arena.
struct ArenaRange {
  int64_t begin;
  int64_t end;
};

/// The ranges `tensor` covers in an arena of `arenaBytes`: one, or two when
/// it wraps past the end of the ring.
SmallVector<ArenaRange, 2> getArenaRanges(const ReportTensor &tensor,
                                          int64_t arenaBytes);

/// The JSON memory report (see docs/passes/vmcu-solve-offsets.md).
llvm::json::Value toJSON(const MemoryReport &report);

/// An SVG picture of the arena: one column per layer, byte address down,
/// one rectangle per live tensor range, the peak layer outlined.
void printMemorySVG(llvm::raw_ostream &os, const MemoryReport &report);

} // namespace mlir::vmcu

#endif // VMCU_SUPPORT_MEMORYREPORT_H
