//===- ChooseSchedule.cpp - fused or unfused, per block, under a budget ---===//
//
// vmcu-fuse-bottleneck fuses every inverted bottleneck: the minimum-RAM
// plan. This pass unfuses the blocks where the separate ring layers fit the
// RAM budget, fastest saving first, since a fused block re-expands every
// input pixel once per depthwise tap.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include <numeric>
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCHOOSESCHEDULEPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

constexpr int64_t kBytesPerKiB = 1024;

/// What unfused layers must keep: the all-fused plan's pool alignment (the
/// lcm of its segment sizes) and its largest kernel stack buffers.
struct FusedPlanLimits {
  int64_t alignment = 1;
  int64_t scratchBytes = 0;
};

/// The largest segment size of `layer` that divides the alignment and whose
/// buffers fit the scratch limit, so neither the pool nor the stack grows;
/// else its smallest.
int64_t fittingSegmentSize(LayerOpInterface layer,
                           const FusedPlanLimits &limits) {
  SmallVector<int64_t> sizes = segmentSizeCandidates(layer);
  for (int64_t size : sizes)
    if (limits.alignment % size == 0 &&
        kernelScratchBytes(layer, size) <= limits.scratchBytes)
      return size;
  return sizes.back();
}

/// Replaces `op` by the layers of its body, each with a segment size that
/// fits `limits`.
void unfuse(BottleneckOp op, const FusedPlanLimits &limits) {
  OpBuilder b(op);
  IRMapping mapping;
  Block &body = op.getBody().front();
  mapping.map(body.getArgument(0), op.getInput());
  for (Operation &inner : body.without_terminator()) {
    Operation *copy = b.clone(inner, mapping);
    auto layer = dyn_cast<LayerOpInterface>(copy);
    if (layer && !layer.getSegmentSizeBytes())
      copy->setAttr("segment_bytes",
                    b.getI64IntegerAttr(fittingSegmentSize(layer, limits)));
  }
  Value result = mapping.lookup(body.getTerminator()->getOperand(0));
  op.getOutput().replaceAllUsesWith(result);
  op.erase();
}

/// The top-level bottlenecks of `func`, in order.
SmallVector<BottleneckOp> bottlenecks(func::FuncOp func) {
  SmallVector<BottleneckOp> ops;
  for (Operation &op : func.getBody().front())
    if (auto fused = dyn_cast<BottleneckOp>(&op))
      ops.push_back(fused);
  return ops;
}

/// Estimated cycles saved by running bottleneck `op` as separate layers.
int64_t unfusingSaves(BottleneckOp op) {
  auto layer = cast<LayerOpInterface>(op.getOperation());
  int64_t fused =
      analysis::estimateCycles(layerWork(layer, segmentSizeOf(layer)));
  int64_t separate = 0;
  for (Operation &inner : op.getBody().front())
    if (auto l = dyn_cast<LayerOpInterface>(&inner))
      separate += analysis::estimateCycles(layerWork(l, segmentSizeOf(l)));
  return fused - separate;
}

struct VMCUChooseSchedulePass
    : vmcu::impl::VMCUChooseSchedulePassBase<VMCUChooseSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal() || bottlenecks(func).empty())
      return; // vmcu-tile reports a missing entry.
    FailureOr<PlanTrial> fused = plan({});
    if (failed(fused))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    int64_t budget = ramKb > 0 ? ramKb * kBytesPerKiB : fused->arenaBytes;
    if (fused->arenaBytes > budget)
      return; // vmcu-select-segment-sizes shrinks segments or reports.
    limits = FusedPlanLimits();
    for (LayerOpInterface layer : chainLayers(func)) {
      int64_t size = segmentSizeOf(layer);
      limits.alignment = std::lcm(limits.alignment, size);
      limits.scratchBytes =
          std::max(limits.scratchBytes, kernelScratchBytes(layer, size));
    }

    SmallVector<unsigned> chosen = candidates(budget);
    // Footprints are local to a block but the pool's alignment is not:
    // drop the smallest saving until the whole plan fits.
    for (;;) {
      FailureOr<PlanTrial> trial = plan(chosen);
      if (chosen.empty() || (succeeded(trial) && trial->arenaBytes <= budget))
        break;
      chosen.pop_back();
    }
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    for (unsigned i : chosen)
      unfuse(ops[i], limits);
    numUnfused += chosen.size();
  }

  FusedPlanLimits limits;

  /// Plans a copy with the bottlenecks `unfused` (indices) unfused.
  FailureOr<PlanTrial> plan(ArrayRef<unsigned> unfused) {
    return tryPlan(getOperation(), entry, [&](func::FuncOp func) {
      SmallVector<BottleneckOp> ops = bottlenecks(func);
      for (unsigned i : unfused)
        unfuse(ops[i], limits);
    });
  }

  /// The bottlenecks whose separate layers each fit `budget` when all are
  /// unfused, largest estimated saving first.
  SmallVector<unsigned> candidates(int64_t budget) {
    auto func = getOperation().lookupSymbol<func::FuncOp>(entry);
    SmallVector<BottleneckOp> ops = bottlenecks(func);
    // The block (or -1) of each kernel of the all-unfused plan.
    SmallVector<int> blockOf;
    for (LayerOpInterface layer : chainLayers(func)) {
      auto it = llvm::find(ops, dyn_cast<BottleneckOp>(layer.getOperation()));
      if (it == ops.end()) {
        blockOf.push_back(-1);
        continue;
      }
      for (Operation &inner : it->getBody().front())
        if (isa<LayerOpInterface>(inner))
          blockOf.push_back(static_cast<int>(it - ops.begin()));
    }
    SmallVector<unsigned> all = llvm::to_vector(llvm::seq<unsigned>(0, ops.size()));
    FailureOr<PlanTrial> separate = plan(all);
    if (failed(separate) || separate->footprintBytes.size() != blockOf.size())
      return {};
    SmallVector<bool> fits(ops.size(), true);
    for (auto [k, block] : llvm::enumerate(blockOf))
      if (block >= 0 && separate->footprintBytes[k] > budget)
        fits[block] = false;
    SmallVector<std::pair<int64_t, unsigned>> ranked;
    for (auto [i, op] : llvm::enumerate(ops)) {
      int64_t saves = unfusingSaves(op);
      if (fits[i] && saves > 0)
        ranked.push_back({saves, static_cast<unsigned>(i)});
    }
    llvm::stable_sort(ranked, [](auto &a, auto &b) { return a.first > b.first; });
    SmallVector<unsigned> chosen;
    for (auto &[saves, i] : ranked)
      chosen.push_back(i);
    return chosen;
  }
};

} // namespace
