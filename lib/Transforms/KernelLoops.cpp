//===- KernelLoops.cpp - facts about the loops of a vmcu.kernel -----------===//
//
// Which loops the loop transforms after the tiler must leave as they are.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Transforms/KernelLoops.h"

#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

using namespace mlir;

/// The deepest loops a phased core split shares out: a phase's inner loop,
/// inside a phase, inside the top-level loop.
static constexpr unsigned kPhaseSharedLoopDepth = 3;

bool mlir::vmcu::isSharedByCores(affine::AffineForOp loop) {
  auto kernel = loop->getParentOfType<KernelOp>();
  if (!kernel || !kernel.getCores() || !accessesRing(loop))
    return false;
  unsigned sharedDepth = kernel.getSplitPhases()
                             ? kPhaseSharedLoopDepth
                             : kernel.getSplitDepth().value_or(1);
  unsigned enclosing = 0;
  for (Operation *op = loop->getParentOp(); op != kernel;
       op = op->getParentOp())
    enclosing += isa<affine::AffineForOp>(op);
  return enclosing < sharedDepth;
}
