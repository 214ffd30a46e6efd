//===- VMCUAttributes.h - vmcu attributes -----------------------*- C++ -*-===//
//
// Declares the vmcu attributes (the folded requantisation).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_H
#define VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#define GET_ATTRDEF_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUAttributes.h.inc"

#endif // VMCU_DIALECT_VMCU_IR_VMCUATTRIBUTES_H
