//===- SelectSegmentSizes.cpp - fit the arena by shrinking segments -------===//
//
// Greedy per-layer segment-size selection under a RAM budget.
//
//===----------------------------------------------------------------------===//

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

constexpr int64_t kBytesPerKiB = 1024;

struct VMCUSelectSegmentSizesPass
    : vmcu::impl::VMCUSelectSegmentSizesPassBase<VMCUSelectSegmentSizesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (ramKb <= 0)
      return;
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal())
      return; // vmcu-tile reports a missing entry.
    SmallVector<LayerOpInterface> layers = chainLayers(func);
    SmallVector<SmallVector<int64_t>> candidates;
    for (LayerOpInterface layer : layers) {
      if (std::optional<uint64_t> fixed = layer.getSegmentSizeBytes())
        candidates.push_back({static_cast<int64_t>(*fixed)});
      else
        candidates.push_back(segmentSizeCandidates(layer));
    }

    int64_t budget = ramKb * kBytesPerKiB;
    SmallVector<int64_t> sizes;
    for (ArrayRef<int64_t> options : candidates)
      sizes.push_back(options.front());
    FailureOr<PlanTrial> current = evaluate(sizes);
    if (failed(current))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    // The pool capacity is a multiple of every segment size, so the lcm of
    // the sizes is what shrinking buys. Try alignments A from the default
    // lcm down, each layer taking its largest size dividing A: the first
    // that fits keeps the largest (fastest) segments.
    int64_t lcm = 1;
    for (int64_t size : sizes)
      lcm = std::lcm(lcm, size);
    PlanTrial smallest = *current;
    for (int64_t align = lcm; align >= 1 && current->arenaBytes > budget;
         --align) {
      if (lcm % align != 0)
        continue;
      SmallVector<int64_t> trialSizes;
      for (ArrayRef<int64_t> options : candidates) {
        const int64_t *fit = llvm::find_if(
            options, [&](int64_t size) { return align % size == 0; });
        trialSizes.push_back(fit != options.end() ? *fit : options.back());
      }
      if (trialSizes == sizes)
        continue;
      FailureOr<PlanTrial> trial = evaluate(trialSizes);
      if (failed(trial))
        continue;
      if (trial->arenaBytes < smallest.arenaBytes)
        smallest = *trial;
      if (trial->arenaBytes <= budget) {
        sizes = trialSizes;
        current = trial;
      }
    }
    if (current->arenaBytes > budget) {
      layers[smallest.worstIndex]->emitError("model needs ")
          << smallest.arenaBytes << " bytes of arena at best, more than "
          << "ram-kb=" << static_cast<int64_t>(ramKb) << " (" << budget
          << " bytes); layer '" << smallest.worstLayer << "' alone needs "
          << smallest.worstBytes() << " bytes";
      return signalPassFailure();
    }

    Builder b(&getContext());
    for (auto [layer, size] : llvm::zip_equal(layers, sizes))
      if (!layer.getSegmentSizeBytes())
        layer->setAttr("segment_bytes", b.getI64IntegerAttr(size));
  }

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
