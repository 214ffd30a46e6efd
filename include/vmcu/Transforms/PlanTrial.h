//===- PlanTrial.h - tile and place a copy of a model -----------*- C++ -*-===//
//
// The planning passes (segment-size selection, schedule choice) weigh a
// change by tiling and placing a copy of the model and reading its arena
// and per-kernel footprints back.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_PLANTRIAL_H
#define VMCU_TRANSFORMS_PLANTRIAL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {

/// `module`'s function named `entry` if it has a body, else null (vmcu-tile
/// reports a missing entry; the planning passes then do nothing).
func::FuncOp entryFunction(ModuleOp module, StringRef entry);

/// The top-level layers of `func`'s chain, in order (the convs inside a
/// vmcu.bottleneck belong to it). vmcu-tile emits one kernel per layer.
SmallVector<LayerOpInterface> chainLayers(func::FuncOp func);

/// Segment sizes `layer` may use, largest (fastest) first: the gcd of its
/// segmented extents (for a fully connected layer over one row whose gcd
/// is not a multiple of 4, the gcd of that and its 4-channel tile), then
/// its divisors that are multiples of the 4 SIMD lanes of one vmcu.dot, so
/// the inner level stays SIMD.
SmallVector<int64_t> segmentSizeCandidates(LayerOpInterface layer);

/// The segment size `layer` gets: its `segment_bytes`, or the largest
/// candidate.
int64_t segmentSizeOf(LayerOpInterface layer);

/// The cost model's cycles (vmcu/Analysis/CostModel.h) of `layers`, each
/// with the segment size it gets (segmentSizeOf).
int64_t estimatedCycles(ArrayRef<LayerOpInterface> layers);

/// What tiling and placing a copy of the model gives.
struct PlanTrial {
  int64_t arenaBytes = 0;
  /// The largest kernel stack buffers (kernelScratchBytes); kernels are
  /// separate functions, so only one kernel's buffers are live at a time.
  int64_t scratchBytes = 0;
  /// Footprint in bytes of each kernel, in chain order (kernel i is
  /// chainLayers()[i] of the copy).
  SmallVector<int64_t> footprintBytes;
  /// Stack buffers of each kernel (kernelScratchBytes), in the same order.
  SmallVector<int64_t> kernelScratchBytes;
  /// The most a tensor-level planner (whole tensors, as TFLite Micro
  /// plans) needs live during any one kernel.
  int64_t tensorLevelBytes = 0;
  /// The kernel with the largest footprint: its index and name.
  unsigned worstIndex = 0;
  std::string worstLayer;

  /// SRAM the plan needs: the arena plus the largest kernel's buffers.
  int64_t sramBytes() const { return arenaBytes + scratchBytes; }

  int64_t worstBytes() const {
    return footprintBytes.empty() ? 0 : footprintBytes[worstIndex];
  }
};

/// A clone of `module` whose entry function `prepare` has edited; null if
/// `module` has no entry function with a body.
OwningOpRef<ModuleOp> preparedCopy(ModuleOp module, StringRef entry,
                                   function_ref<void(func::FuncOp)> prepare);

/// Clones `module`, lets `prepare` edit the copy's entry function, then runs
/// vmcu-tile (for `cores` cores) and vmcu-solve-offsets on the copy.
/// Diagnostics are dropped; fails if either pass fails.
FailureOr<PlanTrial> tryPlan(ModuleOp module, StringRef entry, int64_t cores,
                             function_ref<void(func::FuncOp)> prepare);

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_PLANTRIAL_H
