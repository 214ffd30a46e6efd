//===- SegmentSizer.h - choose the layers' segment sizes --------*- C++ -*-===//
//
// The pool's capacity is a multiple of every segment size, so the lcm of the
// layers' sizes can set the arena rather than any layer. The sizer weighs
// size assignments by tiling and placing copies of the model (PlanTrial):
// vmcu-select-segment-sizes uses it to size the plan it keeps, and
// vmcu-choose-schedule to measure each schedule as it will be sized.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_SEGMENTSIZER_H
#define VMCU_TRANSFORMS_SEGMENTSIZER_H

#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {

class SegmentSizer {
public:
  /// Sizes the chain of `entry` in `module` for `cores` cores; layers
  /// whose `segment_bytes` is set keep it.
  SegmentSizer(ModuleOp module, StringRef entry, int64_t cores);

  /// Each layer's largest (fastest) candidate, or its fixed size.
  SmallVector<int64_t> defaultSizes() const;

  /// Tiles and places a copy of the module with `sizes`.
  FailureOr<PlanTrial> evaluate(ArrayRef<int64_t> sizes) const;

  /// Where the pool's rounding to the sizes' lcm puts `current`'s arena
  /// above levelTarget, plans with the sizes of a smaller alignment whose
  /// rounding of the largest footprint stays within 1/8 of it, fastest
  /// (cost model) first; keeps the first plan within the target, else the
  /// one of least SRAM. Returns whether `sizes` changed.
  bool levelWrapAlignment(SmallVectorImpl<int64_t> &sizes,
                          PlanTrial &current) const;

  /// Makes the plan's SRAM fit `budgetBytes`: the largest alignment whose
  /// rounding of the largest footprint fits it and whose plan does, trying
  /// at most 32 plans and last every layer's smallest size. Fails, with
  /// `smallest` the plan of least SRAM found, if none fits.
  LogicalResult fitBudget(int64_t budgetBytes, SmallVectorImpl<int64_t> &sizes,
                          PlanTrial &current, PlanTrial &smallest) const;

  /// Lowers a kernel's stack buffers that stand above every other kernel's
  /// while that lowers the plan's SRAM. Returns the sizes it lowered.
  unsigned shrinkLargestFrame(SmallVectorImpl<int64_t> &sizes,
                              PlanTrial &current) const;

  ArrayRef<LayerOpInterface> getLayers() const { return layers; }

private:
  /// One alignment's segment sizes, its rounding of the largest footprint
  /// and the cost model's cycles of the layers with them.
  struct AlignmentOption {
    int64_t align;
    SmallVector<int64_t> sizes;
    int64_t roundedBytes;
    int64_t cycles;
  };

  SmallVector<AlignmentOption> alignmentOptions(ArrayRef<int64_t> sizes,
                                                const PlanTrial &current,
                                                int64_t limitBytes,
                                                int64_t targetBytes) const;
  SmallVector<SmallVector<int64_t>> divisorCandidates() const;
  int64_t estimatedCycles(ArrayRef<int64_t> sizes) const;

  ModuleOp module;
  std::string entry;
  int64_t cores;
  SmallVector<LayerOpInterface> layers;
  /// Each layer's candidates (segmentSizeCandidates), or its fixed size.
  SmallVector<SmallVector<int64_t>> candidates;
};

/// Clones `module`, lets `prepare` edit the copy's entry function, then
/// tiles and places it with the segment sizes vmcu-select-segment-sizes
/// gives it without a budget: the defaults, the pool's alignment leveled
/// where its rounding sets the arena.
FailureOr<PlanTrial> tryLeveledPlan(ModuleOp module, StringRef entry,
                                    int64_t cores,
                                    function_ref<void(func::FuncOp)> prepare);

/// A planning pass's trial of `module` edited by `prepare`: under a RAM
/// budget (`ramKb` > 0) with leveled segments (tryLeveledPlan), since the
/// budget path levels them; without one with each layer's own (tryPlan).
FailureOr<PlanTrial> tryBudgetPlan(ModuleOp module, StringRef entry,
                                   int64_t ramKb, int64_t cores,
                                   function_ref<void(func::FuncOp)> prepare);

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_SEGMENTSIZER_H
