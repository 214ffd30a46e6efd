//===- VMCUTypes.h - vmcu types ---------------------------------*- C++ -*-===//
//
// Declares the vmcu types (the segment pool).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUTYPES_H
#define VMCU_DIALECT_VMCU_IR_VMCUTYPES_H

#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUOpsTypes.h.inc"

#endif // VMCU_DIALECT_VMCU_IR_VMCUTYPES_H
