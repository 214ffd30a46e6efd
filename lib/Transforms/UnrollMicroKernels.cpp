//===- UnrollMicroKernels.cpp - unroll the inner loops of kernels ---------===//
//
// Fully unrolls small innermost affine loops inside vmcu.kernel bodies.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Transforms/KernelLoops.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUUNROLLMICROKERNELSPASS
#include "vmcu/Transforms/Passes.h.inc"

namespace {

/// The limits of a kernel marked `compact` (a flash budget's choice, or a
/// one-row softmax): loops of at most 96 operations, `compact-levels`
/// levels of them, no jam. On the shared models and corpus ResNets, these
/// at one level with the tiler's compact GEMM rows took 3.4-22% off the
/// flash of int8 weights everywhere for 2-10% more cycles (docs/flash.md,
/// "Compact kernels").
constexpr unsigned kCompactMaxOps = 96;
constexpr unsigned kCompactJam = 1;

/// True if `loop` has no affine.for nested in it.
bool isInnermost(affine::AffineForOp loop) {
  return !loop.getBody()
              ->walk(
                  [](affine::AffineForOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

/// Operations `loop` grows to when fully unrolled, or nullopt if its trip
/// count is not a constant or it holds a vmcu.dot_block or
/// vmcu.depthwise_block: a block is a long
/// fixed instruction sequence already, and copies of it only grow flash.
std::optional<uint64_t> unrolledOps(affine::AffineForOp loop) {
  std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
  auto isBlock = [](Operation *op) {
    return isa<DotBlockOp, DepthwiseBlockOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  };
  if (!trip || loop.getBody()->walk(isBlock).wasInterrupted())
    return std::nullopt;
  uint64_t bodyOps = 0;
  loop.getBody()->walk([&](Operation *) { ++bodyOps; });
  return *trip * bodyOps;
}

/// True if the body of `outer` holds exactly one loop, an innermost one.
bool wrapsOneInnermostLoop(affine::AffineForOp outer) {
  auto loops = outer.getBody()->getOps<affine::AffineForOp>();
  return llvm::hasSingleElement(loops) && isInnermost(*loops.begin());
}

/// The index operands of a memory write, or nullopt for an op that writes
/// memory in a way this pass does not model.
std::optional<ValueRange> writeIndices(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return ValueRange(store.getIndices());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return ValueRange(store.getIndices());
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return ValueRange(store.getMapOperands());
  if (auto store = dyn_cast<RingStoreOp>(op))
    return ValueRange(store->getOperands().drop_front(2));
  if (auto free = dyn_cast<FreeOp>(op))
    return ValueRange(free->getOperands().drop_front(1));
  return std::nullopt;
}

/// The buffers the ops nested in `region` write at locations every
/// iteration of the enclosing loop shares: indices that do not depend on
/// its induction variable (`dependsOnIv`), or writes this pass does not
/// model.
SmallPtrSet<Value, 4> sharedWrites(Region &region,
                                   function_ref<bool(Value)> dependsOnIv) {
  SmallPtrSet<Value, 4> buffers;
  region.walk([&](MemoryEffectOpInterface op) {
    std::optional<ValueRange> indices = writeIndices(op);
    if (indices && llvm::any_of(*indices, dependsOnIv))
      return;
    SmallVector<MemoryEffects::EffectInstance> effects;
    op.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects)
      if (isa<MemoryEffects::Write>(effect.getEffect()) && effect.getValue())
        buffers.insert(effect.getValue());
  });
  return buffers;
}

/// Unroll-and-jam moves every copy's code before the inner loop ahead of
/// all copies' inner loops, and every copy's code after it behind them.
/// That is wrong when this code writes the same location in every
/// iteration (a scratch buffer the inner loop reads), so a candidate's own
/// body (its inner loop excluded) may write only at indices that depend on
/// its induction variable. It is wrong too when the code after the inner
/// loop reads what the inner loop wrote at such a location (a folded
/// global pool stages a segment of averages in its lane loop, then stores
/// it to the ring): every copy would read the last copy's values. Other
/// writes inside the inner loop are reductions over the outer loop, which
/// jamming only reorders.
bool isJamLegal(affine::AffineForOp loop) {
  SetVector<Operation *> dependent;
  getForwardSlice(loop.getInductionVar(), &dependent);
  auto dependsOnIv = [&](Value v) {
    return v == loop.getInductionVar() ||
           (v.getDefiningOp() && dependent.contains(v.getDefiningOp()));
  };
  for (auto inner : loop.getBody()->getOps<affine::AffineForOp>()) {
    SmallPtrSet<Value, 4> shared = sharedWrites(inner.getRegion(), dependsOnIv);
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != inner.getOperation() &&
          llvm::any_of(op.getOperands(),
                       [&](Value v) { return shared.contains(v); }))
        return false;
  }
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<affine::AffineForOp>(op) || isMemoryEffectFree(&op))
      continue;
    if (!op.getRegions().empty())
      return false;
    std::optional<ValueRange> indices = writeIndices(&op);
    if (!indices) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (effects && effects.onlyHasEffect<MemoryEffects::Read>())
        continue;
      return false;
    }
    if (!llvm::any_of(*indices, dependsOnIv))
      return false;
  }
  return true;
}

struct VMCUUnrollMicroKernelsPass
    : impl::VMCUUnrollMicroKernelsPassBase<VMCUUnrollMicroKernelsPass> {
  using Base::Base;

  /// How far one kernel's loops unroll.
  struct Limits {
    unsigned maxOps, levels, jam;
  };
  Limits limitsOf(KernelOp kernel) const {
    if (kernel.getCompact())
      return {kCompactMaxOps, compactLevels, kCompactJam};
    return {maxOps, levels, jam};
  }

  void runOnOperation() override {
    if (failed(jamChannelLoops()))
      return signalPassFailure();
    for (unsigned level = 0;; ++level) {
      SmallVector<affine::AffineForOp> candidates;
      getOperation().walk([&](KernelOp kernel) {
        Limits limits = limitsOf(kernel);
        if (level >= limits.levels)
          return;
        kernel.getBody().walk([&](affine::AffineForOp loop) {
          std::optional<uint64_t> ops = unrolledOps(loop);
          if (isInnermost(loop) && ops && *ops <= limits.maxOps &&
              !isSharedByCores(loop))
            candidates.push_back(loop);
        });
      });
      if (candidates.empty())
        return;
      for (affine::AffineForOp loop : candidates)
        if (failed(affine::loopUnrollFull(loop)))
          return signalPassFailure();
    }
  }

  /// Unroll-and-jams every loop that wraps one innermost loop and whose
  /// constant trip count is a multiple of `jam` above it: `jam` channels then
  /// share each input word and keep their accumulators in registers.
  LogicalResult jamChannelLoops() {
    SmallVector<std::pair<affine::AffineForOp, unsigned>> candidates;
    getOperation().walk([&](KernelOp kernel) {
      unsigned factor = limitsOf(kernel).jam;
      if (factor <= 1)
        return;
      kernel.getBody().walk([&](affine::AffineForOp loop) {
        std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
        if (trip && *trip > factor && *trip % factor == 0 &&
            wrapsOneInnermostLoop(loop) && isJamLegal(loop) &&
            !isSharedByCores(loop))
          candidates.emplace_back(loop, factor);
      });
    });
    for (auto [loop, factor] : candidates)
      if (failed(affine::loopUnrollJamByFactor(loop, factor)))
        return failure();
    return success();
  }
};

} // namespace

} // namespace mlir::vmcu
