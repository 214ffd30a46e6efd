//===- FuseBottleneck.cpp - fuse inverted bottlenecks ---------------------===//
//
// Moves pw-expand -> dw -> pw-project [-> add] chains, and KxK conv -> dw ->
// pw-project stems, into vmcu.bottleneck.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSEBOTTLENECKPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// A matched chain, in program order; `residual` may be null.
struct BottleneckChain {
  Conv2DOp expand;
  DepthwiseConv2DOp depthwise;
  Conv2DOp project;
  AddOp residual;
};

/// Matches the chain that ends in `project`, if every intermediate has a
/// single use, the projection is pointwise and the expansion pointwise
/// or (with `fuseStem`) a KxK conv whose chain the line-buffer kernel
/// takes, a stem's only kernel.
static std::optional<BottleneckChain>
matchChain(Conv2DOp project, bool fuseResidual, bool fuseStem) {
  if (!project.isPointwise() || project.getResidual())
    return std::nullopt;
  auto dw = project.getInput().getDefiningOp<DepthwiseConv2DOp>();
  if (!dw || !dw->hasOneUse() || dw.getDepthMultiplier() != 1)
    return std::nullopt;
  auto expand = dw.getInput().getDefiningOp<Conv2DOp>();
  if (!expand || !expand->hasOneUse() || expand.getResidual())
    return std::nullopt;
  if (!expand.isPointwise() &&
      !(fuseStem && BottleneckOp::supportsLineBuffer(expand, dw, project)))
    return std::nullopt;
  // Already fused chains live inside a bottleneck body.
  if (isa<BottleneckOp>(project->getParentOp()))
    return std::nullopt;

  BottleneckChain chain{expand, dw, project, AddOp()};
  // A stem runs with a line buffer only, which takes no residual.
  if (!fuseResidual || !expand.isPointwise() || !project->hasOneUse())
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
  // A stem has no other schedule.
  if (fused.isStem())
    fused.setLineBuffer(true);

  rewriter.replaceOp(last, fused.getOutput());
  for (Operation *op : llvm::reverse(ArrayRef(ops).drop_back()))
    rewriter.eraseOp(op);
}

struct VMCUFuseBottleneckPass
    : impl::VMCUFuseBottleneckPassBase<VMCUFuseBottleneckPass> {
  using Base::Base;

  void runOnOperation() override {
    // Chains are taken in program order; a conv claimed by an earlier chain
    // (e.g. a projection that also looks like the next expansion) is
    // skipped. Stems come second: a stem's projection may also be the next
    // block's expansion, and that block, fused, keeps its expanded tensor
    // out of the pool, which the stem's fusion cannot make up for.
    SmallVector<BottleneckChain> chains;
    llvm::DenseSet<Operation *> claimed;
    auto collect = [&](bool stems) {
      getOperation().walk([&](Conv2DOp project) {
        auto chain = matchChain(project, fuseResidual, stems);
        if (!chain || chain->expand.isPointwise() == stems)
          return;
        SmallVector<Operation *, 4> ops = {chain->expand, chain->depthwise,
                                           chain->project};
        if (chain->residual)
          ops.push_back(chain->residual);
        if (llvm::any_of(ops,
                         [&](Operation *op) { return claimed.contains(op); }))
          return;
        claimed.insert(ops.begin(), ops.end());
        chains.push_back(*chain);
      });
    };
    collect(/*stems=*/false);
    if (fuseStem)
      collect(/*stems=*/true);
    IRRewriter rewriter(&getContext());
    for (BottleneckChain &chain : chains) {
      // Counted first: fusing erases the chain's ops.
      ++numFused;
      if (chain.residual)
        ++numResidual;
      if (!chain.expand.isPointwise())
        ++numStem;
      fuse(rewriter, chain);
    }
  }
};

} // namespace

} // namespace mlir::vmcu
