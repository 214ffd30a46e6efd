//===- FuseWindowPool.cpp - fold windowed average pools into convs --------===//
//
// Folds avg_pool2d(conv(h)) over non-overlapping windows of the conv's
// output (stride equal to the window, no padding) into the conv's epilogue
// (vmcu.conv2d's window_avg_pool), so the conv's plane is never stored,
// where a trial plan shows that the SRAM does not grow.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "PoolFolds.h"
#include "vmcu/Transforms/LayerWork.h"
#include "vmcu/Transforms/PlanTrial.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSEWINDOWPOOLPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// The average of `pool` if it averages non-overlapping windows of more
/// than one pixel with no padding, each row of a window at most one im2col
/// block of pixels (kIm2colBlockPixels) wide.
WindowAvgPoolAttr windowAverage(AvgPool2DOp pool) {
  ArrayRef<int64_t> kernel = pool.getKernel(), stride = pool.getStride();
  if (kernel.size() != 2 || kernel != stride || kernel[0] * kernel[1] < 2 ||
      kernel[1] > kIm2colBlockPixels ||
      llvm::any_of(pool.getPad(), [](int64_t p) { return p != 0; }))
    return {};
  return WindowAvgPoolAttr::get(pool.getContext(), kernel[0], kernel[1],
                                static_cast<int32_t>(pool.getInputZp()),
                                static_cast<int32_t>(pool.getOutputZp()),
                                static_cast<int32_t>(pool.getMin()),
                                static_cast<int32_t>(pool.getMax()),
                                pool.getRoundHalfAway());
}

/// A window pool and the conv whose output it averages.
struct WindowPool {
  AvgPool2DOp pool;
  Conv2DOp conv;
  WindowAvgPoolAttr average;
};

/// `op` as a window pool that can fold into the conv computing its input:
/// a top-level conv of no other use, no residual and no folded pool that
/// is not a GEMM (whose pixels do not run window by window).
std::optional<WindowPool> matchWindowPool(Operation *op) {
  auto pool = dyn_cast<AvgPool2DOp>(op);
  if (!pool)
    return std::nullopt;
  WindowAvgPoolAttr average = windowAverage(pool);
  auto conv = pool.getInput().getDefiningOp<Conv2DOp>();
  if (!average || !conv || !conv->hasOneUse() || conv.getResidual() ||
      conv.hasFoldedPool() || conv->getBlock() != op->getBlock() ||
      isGemmLayer(cast<LayerOpInterface>(conv.getOperation())))
    return std::nullopt;
  return WindowPool{pool, conv, average};
}

/// Replaces the pool with its conv computing the pooled result.
void fold(IRRewriter &rewriter, WindowPool match) {
  replaceWithPoolingConv(rewriter, match.pool, match.conv, GlobalAvgPoolAttr(),
                         match.average);
}

struct VMCUFuseWindowPoolPass
    : impl::VMCUFuseWindowPoolPassBase<VMCUFuseWindowPoolPass> {
  using Base::Base;

  void runOnOperation() override {
    // Each iteration of a folded conv's window loops sums whole windows on
    // its core's stack: the conv still splits between cores.
    numFolded += foldMatchesWhereSramAllows<WindowPool>(
        getOperation(), entry, ramKb, cores,
        /*splitsAcrossCores=*/true, matchWindowPool, fold);
  }
};

} // namespace

} // namespace mlir::vmcu
