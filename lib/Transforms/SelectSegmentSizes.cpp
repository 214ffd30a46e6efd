//===- SelectSegmentSizes.cpp - fit the arena by shrinking segments -------===//
//
// Per-layer segment-size selection: the fastest sizes, leveled where the
// pool's alignment sets the arena, shrunk to fit a RAM budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/Passes.h"
#include "vmcu/Transforms/PlanTrial.h"
#include "vmcu/Transforms/SegmentSizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSELECTSEGMENTSIZESPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

struct VMCUSelectSegmentSizesPass
    : impl::VMCUSelectSegmentSizesPassBase<VMCUSelectSegmentSizesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!entryFunction(module, entry))
      return; // vmcu-tile reports a missing entry.
    SegmentSizer sizer(module, entry, cores);
    SmallVector<int64_t> sizes = sizer.defaultSizes();
    FailureOr<PlanTrial> current = sizer.evaluate(sizes);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    if (ramKb > 0) {
      if (failed(fitBudget(sizer, sizes, *current)))
        return signalPassFailure();
    } else {
      if (sizer.levelWrapAlignment(sizes, *current))
        ++numLeveledAlignments;
      numShrunkFrames += sizer.shrinkLargestFrame(sizes, *current);
    }

    Builder b(&getContext());
    for (auto [layerRef, size] : llvm::zip_equal(sizer.getLayers(), sizes))
      if (LayerOpInterface layer = layerRef; !layer.getSegmentSizeBytes())
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  }

  /// Makes the plan's SRAM (arena and the largest kernel's stack buffers)
  /// fit ram-kb: the default sizes if they fit, else the pool's alignment
  /// leveled, else smaller segments; reports the smallest plan found if
  /// none fits.
  LogicalResult fitBudget(const SegmentSizer &sizer,
                          SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    int64_t budget = ramKb * kBytesPerKiB;
    if (current.sramBytes() <= budget)
      return success();
    if (sizer.levelWrapAlignment(sizes, current))
      ++numLeveledAlignments;
    PlanTrial smallest;
    if (succeeded(sizer.fitBudget(budget, sizes, current, smallest)))
      return success();
    LayerOpInterface worst = sizer.getLayers()[smallest.worstIndex];
    worst->emitError("model needs ")
        << smallest.sramBytes() << " bytes of SRAM at best (arena "
        << smallest.arenaBytes << " + kernel stack buffers "
        << smallest.scratchBytes
        << "), more than ram-kb=" << static_cast<int64_t>(ramKb) << " ("
        << budget << " bytes); layer '" << smallest.worstLayer
        << "' alone needs " << smallest.worstBytes() << " bytes of arena";
    return failure();
  }
};

} // namespace

} // namespace mlir::vmcu
