//===- FuseGlobalPool.cpp - fold global average pools into convs ----------===//
//
// Folds avg_pool2d(conv(h)) over the conv's whole output plane, or a MEAN
// over it (a depthwise conv of ones), into the
// conv's epilogue (vmcu.conv2d's global_avg_pool), so the plane is never
// stored, where a trial plan shows that the SRAM does not grow.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "PoolFolds.h"
#include "vmcu/Support/TargetConstants.h"
#include "vmcu/Transforms/PlanTrial.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSEGLOBALPOOLPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// True if a window of `kernel` with `pad` covers the whole plane of
/// `input` once: one output pixel, no padding.
bool coversPlane(ShapedType input, ArrayRef<int64_t> kernel,
                 ArrayRef<int64_t> pad) {
  return kernel.size() == 2 && kernel[0] == input.getDimSize(1) &&
         kernel[1] == input.getDimSize(2) &&
         llvm::all_of(pad, [](int64_t p) { return p == 0; });
}

/// The average of a global average pool.
GlobalAvgPoolAttr globalAverage(AvgPool2DOp pool) {
  if (!coversPlane(pool.getInput().getType(), pool.getKernel(), pool.getPad()))
    return {};
  return GlobalAvgPoolAttr::get(
      pool.getContext(), static_cast<int32_t>(pool.getInputZp()),
      static_cast<int32_t>(pool.getOutputZp()),
      static_cast<int32_t>(pool.getMin()), static_cast<int32_t>(pool.getMax()),
      pool.getRoundHalfAway(), RequantAttr());
}

/// The MEAN of a depthwise conv of ones over the whole plane, no bias and
/// multiplier 1 (as the importer writes TFLite's MEAN).
GlobalAvgPoolAttr globalAverage(DepthwiseConv2DOp dw) {
  auto w = dw.getWeight().getType();
  if (dw.getDepthMultiplier() != 1 ||
      !coversPlane(dw.getInput().getType(), {w.getDimSize(0), w.getDimSize(1)},
                   dw.getPad()) ||
      !matchPattern(dw.getWeight(), m_One()) ||
      !matchPattern(dw.getBias(), m_Zero()))
    return {};
  RequantAttr rq = dw.getRequant();
  return GlobalAvgPoolAttr::get(dw.getContext(),
                                static_cast<int32_t>(dw.getInputZp()),
                                rq.getOutputZp(), rq.getMin(), rq.getMax(),
                                /*round_half_away=*/false, rq);
}

/// A global pool or MEAN of a conv's output, and its average.
struct GlobalPool {
  Operation *op;
  Conv2DOp conv;
  GlobalAvgPoolAttr average;
};

/// `op` as a global pool that can fold into the conv computing its input:
/// a top-level conv of no other use, no residual and no folded pool, over
/// a plane of more pixels than the bytes of one channel's int32 sum (a
/// word): the sums then take fewer bytes than the plane.
std::optional<GlobalPool> matchGlobalPool(Operation *op) {
  GlobalAvgPoolAttr average =
      llvm::TypeSwitch<Operation *, GlobalAvgPoolAttr>(op)
          .Case<AvgPool2DOp, DepthwiseConv2DOp>(
              [](auto layer) { return globalAverage(layer); })
          .Default([](Operation *) { return GlobalAvgPoolAttr(); });
  if (!average)
    return std::nullopt;
  auto conv = op->getOperand(0).getDefiningOp<Conv2DOp>();
  if (!conv || !conv->hasOneUse() || conv.getResidual() ||
      conv.hasFoldedPool() || conv->getBlock() != op->getBlock())
    return std::nullopt;
  auto plane = conv.getOutput().getType();
  if (plane.getDimSize(1) * plane.getDimSize(2) <= kWordBytes)
    return std::nullopt;
  return GlobalPool{op, conv, average};
}

/// Replaces the pool with its conv computing the pooled result.
void fold(IRRewriter &rewriter, GlobalPool pool) {
  replaceWithPoolingConv(rewriter, pool.op, pool.conv, pool.average,
                         WindowAvgPoolAttr());
}

struct VMCUFuseGlobalPoolPass
    : impl::VMCUFuseGlobalPoolPassBase<VMCUFuseGlobalPoolPass> {
  using Base::Base;

  void runOnOperation() override {
    // Under a budget the trials' segments are leveled: the pipeline also
    // runs this pass before vmcu-select-segment-sizes, where a layer's
    // default segments may round the pool far above its need. A folded
    // conv's iterations share the sums: it runs on one core.
    numFolded += foldMatchesWhereSramAllows<GlobalPool>(
        getOperation(), entry, ramKb, cores,
        /*splitsAcrossCores=*/false, matchGlobalPool, fold);
  }
};

} // namespace

} // namespace mlir::vmcu
