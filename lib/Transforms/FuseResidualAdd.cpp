//===- FuseResidualAdd.cpp - fold residual adds into convs ----------------===//
//
// Folds add(conv(h), x) into the conv's epilogue (vmcu.conv2d's residual),
// so the conv may write its output over the skip tensor x.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUFUSERESIDUALADDPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// An add to fold: the conv computing one operand and the other operand.
struct ResidualAdd {
  AddOp add;
  Conv2DOp conv;
  Value skip;
};

/// The conv computing `operand` if the add of `operand` and `skip` can fold
/// into it: a top-level conv of no other use and no residual, computed
/// after `skip` and not reading it.
Conv2DOp foldableConv(AddOp add, Value operand, Value skip) {
  auto conv = operand.getDefiningOp<Conv2DOp>();
  if (!conv || !conv->hasOneUse() || conv.getResidual() ||
      conv.hasFoldedPool() || conv->getBlock() != add->getBlock() ||
      conv.getInput() == skip)
    return {};
  Operation *skipDef = skip.getDefiningOp();
  bool skipFirst =
      skipDef ? skipDef->getBlock() == conv->getBlock() &&
                    skipDef->isBeforeInBlock(conv)
              : isa<BlockArgument>(skip) &&
                    cast<BlockArgument>(skip).getOwner() == conv->getBlock();
  return skipFirst ? conv : Conv2DOp();
}

/// The fold of `add`, if any: into the later of its operands' convs.
std::optional<ResidualAdd> matchResidualAdd(AddOp add) {
  Value lhs = add.getLhs(), rhs = add.getRhs();
  auto type = add.getOutput().getType();
  if (add.getSubtract() || lhs == rhs || lhs.getType() != type ||
      rhs.getType() != type)
    return std::nullopt;
  Conv2DOp fromLhs = foldableConv(add, lhs, rhs);
  Conv2DOp fromRhs = foldableConv(add, rhs, lhs);
  if (fromLhs && (!fromRhs || fromRhs->isBeforeInBlock(fromLhs)))
    return ResidualAdd{add, fromLhs, rhs};
  if (fromRhs)
    return ResidualAdd{add, fromRhs, lhs};
  return std::nullopt;
}

/// Replaces the add with the conv computing it, the skip as its residual.
void fold(IRRewriter &rewriter, const ResidualAdd &match) {
  AddOp add = match.add;
  Conv2DOp conv = match.conv;
  bool convIsLhs = add.getLhs() == conv.getOutput();
  auto residualAdd = ResidualAddAttr::get(
      add.getContext(), convIsLhs ? add.getLhsRescale() : add.getRhsRescale(),
      convIsLhs ? add.getRhsRescale() : add.getLhsRescale(), add.getRequant());
  rewriter.setInsertionPoint(conv);
  auto fused = Conv2DOp::create(
      rewriter, conv.getLoc(), add.getOutput().getType(), conv.getInput(),
      conv.getWeight(), conv.getBias(), match.skip, conv.getStrideAttr(),
      conv.getPadAttr(), conv.getInputZpAttr(), conv.getRequantAttr(),
      conv.getSegmentBytesAttr(), residualAdd, conv.getPairedRowsAttr(),
      GlobalAvgPoolAttr(), WindowAvgPoolAttr());
  rewriter.replaceOp(add, fused.getOutput());
  rewriter.eraseOp(conv);
}

struct VMCUFuseResidualAddPass
    : impl::VMCUFuseResidualAddPassBase<VMCUFuseResidualAddPass> {
  using Base::Base;

  void runOnOperation() override {
    // In program order, each add matched after the folds before it: an add
    // of an earlier one reads the conv that replaced it.
    IRRewriter rewriter(&getContext());
    for (auto add :
         llvm::make_early_inc_range(getOperation().getBody().getOps<AddOp>())) {
      if (std::optional<ResidualAdd> match = matchResidualAdd(add)) {
        fold(rewriter, *match);
        ++numFolded;
      }
    }
  }
};

} // namespace

} // namespace mlir::vmcu
