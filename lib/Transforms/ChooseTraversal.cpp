//===- ChooseTraversal.cpp - reverse a recomputing block where it fits ----===//
//
// A recomputing bottleneck kernel may visit its output pixels in row-major
// order or in reverse; the offset solver then places its output below or
// above its input. This pass plans the model both ways and keeps, per
// block, the order with the smaller footprint.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"
#include "vmcu/Transforms/ScheduleNames.h"

#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUCHOOSETRAVERSALPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// The chain positions (kernel indices) of `func`'s recomputing
/// bottlenecks: those without a line buffer (a stem always has one).
SmallVector<unsigned> recomputingBlocks(func::FuncOp func) {
  SmallVector<unsigned> blocks;
  for (auto [i, layer] : llvm::enumerate(chainLayers(func))) {
    auto op = dyn_cast<BottleneckOp>(layer.getOperation());
    if (op && !op.getLineBuffer())
      blocks.push_back(i);
  }
  return blocks;
}

/// Sets `reverse_order` to `reversed` on the layers of `func` at chain
/// positions `blocks` (recomputing bottlenecks).
void setOrder(func::FuncOp func, ArrayRef<unsigned> blocks, bool reversed) {
  SmallVector<LayerOpInterface> layers = chainLayers(func);
  for (unsigned i : blocks)
    cast<BottleneckOp>(layers[i].getOperation()).setReverseOrder(reversed);
}

struct VMCUChooseTraversalPass
    : impl::VMCUChooseTraversalPassBase<VMCUChooseTraversalPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!parseName(kTraversalOrders, order)) {
      module.emitError("vmcu-choose-traversal: unknown order '")
          << order << "'; expected " << nameList(kTraversalOrders);
      return signalPassFailure();
    }
    func::FuncOp func = entryFunction(module, entry);
    if (!func)
      return; // vmcu-tile reports a missing entry.
    SmallVector<unsigned> blocks = recomputingBlocks(func);
    if (blocks.empty())
      return;
    if (order != "auto") {
      setOrder(func, blocks, order == "reverse");
      numReversed += order == "reverse" ? blocks.size() : 0;
      return;
    }
    // The orders are compared by footprint, which the cores do not change.
    FailureOr<PlanTrial> forward =
        tryPlan(module, entry, /*cores=*/1,
                [&](func::FuncOp copy) { setOrder(copy, blocks, false); });
    FailureOr<PlanTrial> backward =
        tryPlan(module, entry, /*cores=*/1,
                [&](func::FuncOp copy) { setOrder(copy, blocks, true); });
    size_t kernels = chainLayers(func).size();
    if (failed(forward) || failed(backward) ||
        forward->footprintBytes.size() != kernels ||
        backward->footprintBytes.size() != kernels)
      return; // vmcu-tile / vmcu-solve-offsets report why.
    SmallVector<unsigned> smaller;
    for (unsigned i : blocks)
      if (backward->footprintBytes[i] < forward->footprintBytes[i])
        smaller.push_back(i);
    setOrder(func, blocks, false);
    setOrder(func, smaller, true);
    numReversed += smaller.size();
  }
};

} // namespace

} // namespace mlir::vmcu
