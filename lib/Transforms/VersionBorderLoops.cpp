//===- VersionBorderLoops.cpp - interior copies of border-clamped loops ---===//
//
// Gives each small loop nest whose bounds clamp at the image border a copy
// with the interior's constant bounds, taken under an affine.if.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IntegerSet.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Transforms/KernelLoops.h"

#include <climits>

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUVERSIONBORDERLOOPSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// The one constant result of a bound map (the interior's bound), or
/// nullopt if it has none or several.
std::optional<int64_t> constantResult(AffineMap map) {
  std::optional<int64_t> found;
  for (AffineExpr result : map.getResults()) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (!constant)
      continue;
    if (found)
      return std::nullopt;
    found = constant.getValue();
  }
  return found;
}

/// The interior bounds of `loop`: the constant results of its lower bound's
/// max and its upper bound's min, or nullopt without them or with symbols
/// (which the condition would have to keep apart from its dimensions).
std::optional<std::pair<int64_t, int64_t>>
interiorBounds(affine::AffineForOp loop) {
  AffineMap lowerMap = loop.getLowerBoundMap();
  AffineMap upperMap = loop.getUpperBoundMap();
  if (lowerMap.getNumSymbols() != 0 || upperMap.getNumSymbols() != 0)
    return std::nullopt;
  std::optional<int64_t> lower = constantResult(lowerMap);
  std::optional<int64_t> upper = constantResult(upperMap);
  if (!lower || !upper || *upper <= *lower)
    return std::nullopt;
  return std::make_pair(*lower, *upper);
}

/// The conditions under which a nest's loops run their interior bounds,
/// as one integer set over `operands` (every bound operand a dimension).
struct InteriorCondition {
  SmallVector<Value> operands;
  SmallVector<AffineExpr> constraints;

  /// `map`'s results over `mapOperands` (dimensions only), as expressions
  /// of `operands`.
  SmallVector<AffineExpr> remap(AffineMap map, ValueRange mapOperands) {
    SmallVector<AffineExpr> dims;
    for (Value operand : mapOperands) {
      auto *it = llvm::find(operands, operand);
      if (it == operands.end())
        it = operands.insert(operands.end(), operand);
      dims.push_back(getAffineDimExpr(it - operands.begin(), map.getContext()));
    }
    SmallVector<AffineExpr> results;
    for (AffineExpr result : map.getResults())
      results.push_back(result.replaceDims(dims));
    return results;
  }

  /// Adds "every non-constant lower bound <= `lower`, every non-constant
  /// upper bound >= `upper`" for `loop`.
  void add(affine::AffineForOp loop, int64_t lower, int64_t upper) {
    for (AffineExpr bound :
         remap(loop.getLowerBoundMap(), loop.getLowerBoundOperands()))
      if (!isa<AffineConstantExpr>(bound))
        constraints.push_back(lower - bound);
    for (AffineExpr bound :
         remap(loop.getUpperBoundMap(), loop.getUpperBoundOperands()))
      if (!isa<AffineConstantExpr>(bound))
        constraints.push_back(bound - upper);
  }
};

/// Operations the nest of `loop` runs at its interior bounds, or nullopt
/// if a loop's bounds are neither constant nor clamped to a constant by
/// values from outside `top`, or the nest holds ops with regions other
/// than affine.for or a dot or depthwise block (the copy would not be a
/// short straight-line run).
std::optional<uint64_t> interiorOps(affine::AffineForOp loop,
                                    affine::AffineForOp top,
                                    InteriorCondition &condition) {
  std::optional<std::pair<int64_t, int64_t>> bounds = interiorBounds(loop);
  if (!bounds)
    return std::nullopt;
  auto outside = [&](Value v) { return top.isDefinedOutsideOfLoop(v); };
  if (!llvm::all_of(loop.getLowerBoundOperands(), outside) ||
      !llvm::all_of(loop.getUpperBoundOperands(), outside))
    return std::nullopt;
  condition.add(loop, bounds->first, bounds->second);
  uint64_t bodyOps = 0;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto inner = dyn_cast<affine::AffineForOp>(op)) {
      std::optional<uint64_t> innerOps = interiorOps(inner, top, condition);
      if (!innerOps)
        return std::nullopt;
      bodyOps += *innerOps;
    } else if (op.getNumRegions() != 0 ||
               isa<DotBlockOp, DepthwiseBlockOp>(op)) {
      return std::nullopt;
    } else {
      ++bodyOps;
    }
  }
  // The span, not the trip count: a strided loop counts as unit-step.
  return (bounds->second - bounds->first) * bodyOps;
}

/// The widest vector of integers or floats among `op`'s operands and
/// results, in bytes: a bound on what its loads and stores move at once.
uint64_t vectorBytes(Operation *op) {
  uint64_t widest = 0;
  auto widen = [&](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    if (vector && vector.getElementType().isIntOrFloat())
      widest = std::max<uint64_t>(
          widest, llvm::divideCeil(vector.getNumElements() *
                                       vector.getElementTypeBitWidth(),
                                   CHAR_BIT));
  };
  llvm::for_each(op->getOperandTypes(), widen);
  llvm::for_each(op->getResultTypes(), widen);
  return widest;
}

/// Sets every loop of `nest` to its interior bounds.
void setInteriorBounds(affine::AffineForOp nest) {
  nest.walk([](affine::AffineForOp loop) {
    auto [lower, upper] = *interiorBounds(loop);
    loop.setConstantLowerBound(lower);
    loop.setConstantUpperBound(upper);
  });
}

struct VMCUVersionBorderLoopsPass
    : impl::VMCUVersionBorderLoopsPassBase<VMCUVersionBorderLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<affine::AffineForOp, InteriorCondition>> nests;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel.getCompact())
        return;
      kernel.getBody().walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
        if (std::optional<InteriorCondition> condition = candidate(loop)) {
          nests.emplace_back(loop, std::move(*condition));
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
    });
    for (auto &[loop, condition] : nests)
      version(loop, condition);
  }

  /// The interior condition of the nest `loop` heads, if it clamps at the
  /// border, has no results, is not shared out between cores and its
  /// interior copy stays within `max-ops` operations.
  std::optional<InteriorCondition> candidate(affine::AffineForOp loop) const {
    if (loop.getNumResults() != 0 || isSharedByCores(loop))
      return std::nullopt;
    InteriorCondition condition;
    std::optional<uint64_t> ops = interiorOps(loop, loop, condition);
    if (!ops || *ops > maxOps || condition.constraints.empty())
      return std::nullopt;
    uint64_t widest = 0;
    loop.walk(
        [&](Operation *op) { widest = std::max(widest, vectorBytes(op)); });
    if (widest > maxAccessBytes)
      return std::nullopt;
    return condition;
  }

  /// Wraps `loop` in an affine.if whose then-branch holds a copy at its
  /// interior bounds and whose else-branch holds `loop` itself.
  static void version(affine::AffineForOp loop,
                      const InteriorCondition &condition) {
    OpBuilder builder(loop);
    unsigned dims = condition.operands.size();
    SmallVector<AffineExpr> constraints;
    for (AffineExpr constraint : condition.constraints)
      constraints.push_back(simplifyAffineExpr(constraint, dims, 0));
    auto set = IntegerSet::get(dims, /*symbolCount=*/0, constraints,
                               SmallVector<bool>(constraints.size(), false));
    auto ifOp = affine::AffineIfOp::create(builder, loop.getLoc(), set,
                                           condition.operands,
                                           /*withElseRegion=*/true);
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    auto interior = cast<affine::AffineForOp>(thenBuilder.clone(*loop));
    setInteriorBounds(interior);
    loop->moveBefore(ifOp.getElseBlock()->getTerminator());
  }
};

} // namespace

} // namespace mlir::vmcu
