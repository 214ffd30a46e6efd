//===- FuseGlobalPool.cpp - fold global average pools into convs ----------===//
//
// Folds avg_pool2d(conv(h)) over the conv's whole output plane into the
// conv's epilogue (vmcu.conv2d's global_avg_pool), so the plane is never
// stored, where a trial plan shows that the SRAM does not grow.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Support/Units.h"
#include "vmcu/Transforms/PlanTrial.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSEGLOBALPOOLPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// True if `pool` averages its whole input plane into one pixel.
bool isGlobalPool(AvgPool2DOp pool) {
  auto in = pool.getInput().getType();
  ArrayRef<int64_t> kernel = pool.getKernel();
  return kernel.size() == 2 && kernel[0] == in.getDimSize(1) &&
         kernel[1] == in.getDimSize(2) &&
         llvm::all_of(pool.getPad(), [](int64_t p) { return p == 0; });
}

/// The conv whose output `pool` averages, if the pool can fold into it: a
/// top-level conv of no other use, no residual and no folded pool, over a
/// plane of more pixels than the bytes of one channel's int32 sum (a word):
/// the sums then take fewer bytes than the plane.
Conv2DOp foldableConv(AvgPool2DOp pool) {
  auto conv = pool.getInput().getDefiningOp<Conv2DOp>();
  if (!conv || !conv->hasOneUse() || conv.getResidual() ||
      conv.getGlobalAvgPoolAttr() || conv->getBlock() != pool->getBlock() ||
      !isGlobalPool(pool))
    return {};
  auto plane = conv.getOutput().getType();
  int64_t pixels = plane.getDimSize(1) * plane.getDimSize(2);
  return pixels > kWordBytes ? conv : Conv2DOp();
}

/// Replaces `pool` with `conv` computing the pooled result.
void fold(IRRewriter &rewriter, AvgPool2DOp pool, Conv2DOp conv) {
  auto average = GlobalAvgPoolAttr::get(
      pool.getContext(), static_cast<int32_t>(pool.getInputZp()),
      static_cast<int32_t>(pool.getOutputZp()),
      static_cast<int32_t>(pool.getMin()), static_cast<int32_t>(pool.getMax()),
      pool.getRoundHalfAway());
  rewriter.setInsertionPoint(conv);
  auto fused = Conv2DOp::create(
      rewriter, conv.getLoc(), pool.getOutput().getType(), conv.getInput(),
      conv.getWeight(), conv.getBias(), Value(), conv.getStrideAttr(),
      conv.getPadAttr(), conv.getInputZpAttr(), conv.getRequantAttr(),
      conv.getSegmentBytesAttr(), ResidualAddAttr(), conv.getPairedRowsAttr(),
      average);
  rewriter.replaceOp(pool, fused.getOutput());
  rewriter.eraseOp(conv);
}

/// Folds every foldable global pool of `func`; returns how many.
int64_t foldAll(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  int64_t folded = 0;
  for (auto pool :
       llvm::make_early_inc_range(func.getBody().getOps<AvgPool2DOp>())) {
    if (Conv2DOp conv = foldableConv(pool)) {
      fold(rewriter, pool, conv);
      ++folded;
    }
  }
  return folded;
}

bool hasFoldablePool(func::FuncOp func) {
  return llvm::any_of(func.getBody().getOps<AvgPool2DOp>(),
                      [](AvgPool2DOp pool) { return foldableConv(pool); });
}

struct VMCUFuseGlobalPoolPass
    : vmcu::impl::VMCUFuseGlobalPoolPassBase<VMCUFuseGlobalPoolPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal() || !hasFoldablePool(func))
      return; // vmcu-tile reports a missing entry.
    FailureOr<PlanTrial> current = tryPlan(module, entry, [](func::FuncOp) {});
    FailureOr<PlanTrial> folded =
        tryPlan(module, entry, [](func::FuncOp copy) { foldAll(copy); });
    if (failed(current) || failed(folded))
      return; // vmcu-tile / vmcu-solve-offsets report why.
    int64_t sram = folded->sramBytes();
    bool fits = sram <= current->sramBytes() ||
                (ramKb > 0 && sram <= ramKb * kBytesPerKiB);
    if (fits)
      numFolded += foldAll(func);
  }
};

} // namespace
