//===- FuseBottleneck.cpp - fuse inverted bottlenecks ---------------------===//
//
// Moves pw-expand -> dw -> pw-project [-> add] chains into vmcu.bottleneck.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSEBOTTLENECKPASS
#include "vmcu/Transforms/Passes.h.inc"
} // namespace mlir::vmcu

using namespace mlir;
using namespace mlir::vmcu;

namespace {

/// A matched chain, in program order; `residual` may be null.
struct BottleneckChain {
  Conv2DOp expand;
  DepthwiseConv2DOp depthwise;
  Conv2DOp project;
  AddOp residual;
};

/// Matches the chain that ends in `project`, if every intermediate has a
/// single use and both convolutions are pointwise.
static std::optional<BottleneckChain> matchChain(Conv2DOp project,
                                                 bool fuseResidual) {
  if (!project.isPointwise())
    return std::nullopt;
  auto dw = project.getInput().getDefiningOp<DepthwiseConv2DOp>();
  if (!dw || !dw->hasOneUse())
    return std::nullopt;
  auto expand = dw.getInput().getDefiningOp<Conv2DOp>();
  if (!expand || !expand->hasOneUse() || !expand.isPointwise())
    return std::nullopt;
  // Already fused chains live inside a bottleneck body.
  if (isa<BottleneckOp>(project->getParentOp()))
    return std::nullopt;

  BottleneckChain chain{expand, dw, project, AddOp()};
  if (!fuseResidual || !project->hasOneUse())
    return chain;
  auto add = dyn_cast<AddOp>(*project->getUsers().begin());
  Value blockInput = expand.getInput();
  if (add && !add.getSubtract() && add.getLhs() != add.getRhs() &&
      add.getLhs().getType() == add.getRhs().getType() &&
      (add.getLhs() == blockInput || add.getRhs() == blockInput))
    chain.residual = add;
  return chain;
}

static void fuse(IRRewriter &rewriter, BottleneckChain chain) {
  SmallVector<Operation *> ops = {chain.expand, chain.depthwise, chain.project};
  if (chain.residual)
    ops.push_back(chain.residual);
  Operation *last = ops.back();
  Value input = chain.expand.getInput();

  rewriter.setInsertionPoint(last);
  auto fused = BottleneckOp::create(rewriter, last->getLoc(),
                                    last->getResult(0).getType(), input);
  Block &body = fused.getBody().front();
  IRMapping mapping;
  mapping.map(input, body.getArgument(0));
  rewriter.setInsertionPointToStart(&body);
  for (Operation *op : ops)
    rewriter.clone(*op, mapping);
  YieldOp::create(rewriter, last->getLoc(), mapping.lookup(last->getResult(0)));

  rewriter.replaceOp(last, fused.getOutput());
  for (Operation *op : llvm::reverse(ArrayRef(ops).drop_back()))
    rewriter.eraseOp(op);
}

struct VMCUFuseBottleneckPass
    : vmcu::impl::VMCUFuseBottleneckPassBase<VMCUFuseBottleneckPass> {
  using Base::Base;

  void runOnOperation() override {
    // Chains are taken in program order; a conv claimed by an earlier chain
    // (e.g. a projection that also looks like the next expansion) is skipped.
    SmallVector<BottleneckChain> chains;
    llvm::DenseSet<Operation *> claimed;
    getOperation().walk([&](Conv2DOp project) {
      auto chain = matchChain(project, fuseResidual);
      if (!chain || claimed.contains(chain->expand))
        return;
      for (Operation *op :
           {chain->expand.getOperation(), chain->depthwise.getOperation(),
            chain->project.getOperation()})
        claimed.insert(op);
      if (chain->residual)
        claimed.insert(chain->residual);
      chains.push_back(*chain);
    });
    IRRewriter rewriter(&getContext());
    for (BottleneckChain &chain : chains) {
      fuse(rewriter, chain);
      ++numFused;
      if (chain.residual)
        ++numResidual;
    }
  }
};

} // namespace
