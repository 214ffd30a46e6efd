//===- KernelPatternFromIR.h - read a kernel's ring accesses ----*- C++ -*-===//
//
// Rebuilds the segment-level access pattern of a vmcu.kernel from its IR
// (affine.for nests and ring ops), for the offset solver and checkers.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_ANALYSIS_KERNELPATTERNFROMIR_H
#define VMCU_ANALYSIS_KERNELPATTERNFROMIR_H

#include "mlir/Support/LLVM.h"
#include "vmcu/Analysis/AccessPattern.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {

/// Reads the ring accesses of `kernel` in units of `segmentBytes` (a
/// multiple of the pool's segment size). Emits a located error and fails if
/// the body uses loops other than affine.for, addresses that are not an
/// affine function of the loop indices plus one tensor base, or tensors that
/// are not the kernel's. Input `inputIndex` of the kernel plays the input
/// role; accesses to its other inputs are left out.
FailureOr<analysis::KernelPattern> buildKernelPattern(KernelOp kernel,
                                                      int64_t segmentBytes,
                                                      unsigned inputIndex = 0);

} // namespace mlir::vmcu

#endif // VMCU_ANALYSIS_KERNELPATTERNFROMIR_H
