//===- VMCUInterfaces.h - vmcu op interfaces --------------------*- C++ -*-===//
//
// Declares LayerOpInterface, implemented by every vmcu layer op.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_H
#define VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::vmcu::detail {
/// Checks that the op's segment size (if set) divides its segmented extents.
LogicalResult verifyLayerOp(Operation *op);
} // namespace mlir::vmcu::detail

#include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.h.inc"

#endif // VMCU_DIALECT_VMCU_IR_VMCUINTERFACES_H
