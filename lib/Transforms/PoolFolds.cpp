//===- PoolFolds.cpp - fold pools into the convs they average -------------===//

#include "PoolFolds.h"

#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/PlanTrial.h"
#include "vmcu/Transforms/SegmentSizer.h"

using namespace mlir;
using namespace mlir::vmcu;

void mlir::vmcu::replaceWithPoolingConv(IRRewriter &rewriter, Operation *pool,
                                        Conv2DOp conv, GlobalAvgPoolAttr global,
                                        WindowAvgPoolAttr window) {
  rewriter.setInsertionPoint(conv);
  auto fused = Conv2DOp::create(
      rewriter, conv.getLoc(), pool->getResult(0).getType(), conv.getInput(),
      conv.getWeight(), conv.getBias(), Value(), conv.getStrideAttr(),
      conv.getPadAttr(), conv.getInputZpAttr(), conv.getRequantAttr(),
      conv.getSegmentBytesAttr(), ResidualAddAttr(), conv.getPairedRowsAttr(),
      global, window);
  rewriter.replaceOp(pool, fused.getOutput());
  rewriter.eraseOp(conv);
}

int64_t
mlir::vmcu::foldWhereSramAllows(ModuleOp module, StringRef entry, int64_t ramKb,
                                int64_t cores, bool splitsAcrossCores,
                                function_ref<int64_t(func::FuncOp)> foldAll) {
  FailureOr<PlanTrial> current =
      tryBudgetPlan(module, entry, ramKb, cores, [](func::FuncOp) {});
  FailureOr<PlanTrial> folded = tryBudgetPlan(
      module, entry, ramKb, cores, [&](func::FuncOp copy) { foldAll(copy); });
  if (failed(current) || failed(folded))
    return 0; // vmcu-tile / vmcu-solve-offsets report why.
  // A conv that no longer splits pays on two cores with a lower SRAM
  // only; otherwise the fold also saves the pool's pass over the conv's
  // output.
  int64_t sram = folded->sramBytes();
  int64_t unfolded = current->sramBytes();
  bool fits =
      cores > 1 && !splitsAcrossCores
          ? sram < unfolded
          : sram <= unfolded || (ramKb > 0 && sram <= ramKb * kBytesPerKiB);
  return fits ? foldAll(entryFunction(module, entry)) : 0;
}
