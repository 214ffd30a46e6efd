//===- CoresOption.h - The two-core passes' cores option --------*- C++ -*-===//
//
// vmcu-split-kernels and vmcu-distribute-kernels split kernels between two
// cores; both check their `cores` option here.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_CORESOPTION_H
#define VMCU_LIB_TRANSFORMS_CORESOPTION_H

#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

#include "mlir/IR/Operation.h"

namespace mlir::vmcu {

/// Success where `cores` is 1 or core_split::kSplitCores; else an error on
/// `op` prefixed with `pass`.
inline LogicalResult verifyCoresOption(Operation *op, StringRef pass,
                                       unsigned cores) {
  if (cores == 1 || cores == core_split::kSplitCores)
    return success();
  return op->emitError(pass) << ": cores must be 1 or "
                             << core_split::kSplitCores << ", got " << cores;
}

} // namespace mlir::vmcu

#endif // VMCU_LIB_TRANSFORMS_CORESOPTION_H
