//===- SelectSegmentSizes.cpp - fit the arena by shrinking segments -------===//
//
// Greedy per-layer segment-size selection under a RAM budget.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Transforms/PlanTrial.h"
#include <numeric>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSELECTSEGMENTSIZESPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

struct VMCUSelectSegmentSizesPass
    : vmcu::impl::VMCUSelectSegmentSizesPassBase<VMCUSelectSegmentSizesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      return; // vmcu-tile reports a missing entry.
    layers = chainLayers(func);
    candidates.clear();
    for (LayerOpInterface layer : layers) {
      if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
        candidates.push_back({static_cast<int64_t>(*fixed)});
      else
        candidates.push_back(segmentSizeCandidates(layer));
    }
    SmallVector<int64_t> sizes;
    for (ArrayRef<int64_t> options : candidates)
      sizes.push_back(options.front());
    FailureOr<PlanTrial> current = evaluate(sizes);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    if (ramKb > 0 && failed(fitBudget(sizes, *current)))
      return signalPassFailure();
    if (ramKb <= 0)
      shrinkLargestFrame(sizes, *current);

    Builder b(&getContext());
    for (auto [layer, size] : llvm::zip_equal(layers, sizes))
      if (!layer.getSegmentSizeBytes())
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  }

  /// Shrinks segments until the plan's SRAM (arena and the largest kernel's
  /// stack buffers) fits ram-kb. The pool capacity is a multiple of every
  /// segment size, so the lcm of the sizes is what shrinking buys: tries
  /// alignments A from the default lcm down, each layer taking its largest
  /// size dividing A; the first that fits keeps the largest (fastest)
  /// segments. Without one, reports the smallest plan found.
  LogicalResult fitBudget(SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    int64_t budget = ramKb * kBytesPerKiB;
    int64_t lcm = 1;
    for (int64_t size : sizes)
      lcm = std::lcm(lcm, size);
    PlanTrial smallest = current;
    for (int64_t align = lcm; align >= 1 && current.sramBytes() > budget;
         --align) {
      if (lcm % align != 0)
        continue;
      SmallVector<int64_t> trialSizes;
      for (ArrayRef<int64_t> options : candidates) {
        const int64_t *fit = llvm::find_if(
            options, [&](int64_t size) { return align % size == 0; });
        trialSizes.push_back(fit != options.end() ? *fit : options.back());
      }
      if (ArrayRef<int64_t>(trialSizes) == ArrayRef<int64_t>(sizes))
        continue;
      FailureOr<PlanTrial> trial = evaluate(trialSizes);
      if (failed(trial))
        continue;
      if (trial->sramBytes() < smallest.sramBytes())
        smallest = *trial;
      if (trial->sramBytes() <= budget) {
        sizes.assign(trialSizes);
        current = *trial;
      }
    }
    if (current.sramBytes() <= budget)
      return success();
    layers[smallest.worstIndex]->emitError("model needs ")
        << smallest.sramBytes() << " bytes of SRAM at best (arena "
        << smallest.arenaBytes << " + kernel stack buffers "
        << smallest.scratchBytes
        << "), more than ram-kb=" << static_cast<int64_t>(ramKb) << " ("
        << budget << " bytes); layer '" << smallest.worstLayer
        << "' alone needs " << smallest.worstBytes() << " bytes of arena";
    return failure();
  }

  /// Without a budget, a kernel whose stack buffers stand above every
  /// other kernel's sets the stack alone: it takes smaller segments while
  /// its buffers exceed the next largest kernel's and that lowers the
  /// plan's SRAM. Only that kernel pays in speed, and only down to what the
  /// rest of the model needs anyway (a model of one kernel keeps its
  /// segments).
  void shrinkLargestFrame(SmallVectorImpl<int64_t> &sizes, PlanTrial &current) {
    ArrayRef<int64_t> frames = current.kernelScratchBytes;
    if (frames.size() != sizes.size() || frames.size() < 2)
      return;
    unsigned k = llvm::max_element(frames) - frames.begin();
    int64_t others = 0;
    for (auto [i, bytes] : llvm::enumerate(frames))
      if (i != k)
        others = std::max(others, bytes);
    while (current.kernelScratchBytes[k] > others) {
      const int64_t *next = llvm::find_if(
          candidates[k], [&](int64_t size) { return size < sizes[k]; });
      if (next == candidates[k].end())
        return;
      SmallVector<int64_t> trialSizes(sizes.begin(), sizes.end());
      trialSizes[k] = *next;
      FailureOr<PlanTrial> trial = evaluate(trialSizes);
      if (failed(trial) || trial->sramBytes() >= current.sramBytes() ||
          trial->kernelScratchBytes.size() != frames.size())
        return;
      sizes.assign(trialSizes);
      current = *trial;
      ++numShrunkFrames;
    }
  }

  SmallVector<LayerOpInterface> layers;
  SmallVector<SmallVector<int64_t>> candidates;

  /// Tiles and places a copy of the module with `sizes`.
  FailureOr<PlanTrial> evaluate(ArrayRef<int64_t> sizes) {
    return tryPlan(getOperation(), entry, [&](func::FuncOp func) {
      Builder b(func.getContext());
      for (auto [layer, size] : llvm::zip_equal(chainLayers(func), sizes))
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
    });
  }
};

} // namespace
