//===- VMCU.td - vmcu dialect umbrella ---------------------*- tablegen -*-===//
//
// Includes every ODS file of the vmcu dialect.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCU_TD
#define VMCU_DIALECT_VMCU_IR_VMCU_TD

include "vmcu/Dialect/VMCU/IR/VMCUDialect.td"
include "vmcu/Dialect/VMCU/IR/VMCUAttributes.td"
include "vmcu/Dialect/VMCU/IR/VMCUTypes.td"
include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.td"
include "vmcu/Dialect/VMCU/IR/VMCUOps.td"

#endif // VMCU_DIALECT_VMCU_IR_VMCU_TD
