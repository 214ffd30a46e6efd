//===- KernelLoops.h - facts about the loops of a vmcu.kernel ---*- C++ -*-===//
//
// What the loop transforms after the tiler (unrolling, border versioning)
// must leave as they are.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_KERNELLOOPS_H
#define VMCU_TRANSFORMS_KERNELLOOPS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace mlir::vmcu {

/// True if `loop` is one whose iterations a kernel split between cores
/// shares out (vmcu-distribute-kernels): the cores take them in turn, so
/// the loop must keep them. Those are the kernel's top-level loop of rows,
/// with split_depth 2 the loops in it (pixels), and with phases theirs
/// too; loops deeper in a split iteration run as on one core.
bool isSharedByCores(affine::AffineForOp loop);

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_KERNELLOOPS_H
