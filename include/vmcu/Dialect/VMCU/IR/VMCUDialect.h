//===- VMCUDialect.h - vmcu dialect -----------------------------*- C++ -*-===//
//
// Declares the vmcu dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H
#define VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "vmcu/Dialect/VMCU/IR/VMCUOpsDialect.h.inc"

namespace mlir {
class DialectRegistry;
namespace vmcu {
/// Adds the vmcu dialect to `registry` (for compilers that embed vmcu).
void registerVMCUDialect(DialectRegistry &registry);
} // namespace vmcu
} // namespace mlir

#endif // VMCU_DIALECT_VMCU_IR_VMCUDIALECT_H
