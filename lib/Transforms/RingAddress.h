//===- RingAddress.h - what a ring address is made of ----------*- C++ -*-===//
//
// Shared by the two ring verifiers (vmcu-verify-ring, vmcu-verify-two-cores).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_TRANSFORMS_RINGADDRESS_H
#define VMCU_LIB_TRANSFORMS_RINGADDRESS_H

#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"

namespace mlir::vmcu {

/// The vmcu.tensor_base whose base a ring address adds: the first one its
/// affine.apply and arith ops reach; null if they reach none.
TensorBaseOp addressedTensor(Value address);

/// Whether `op` is an arith dialect op (the integer arithmetic of ring
/// addresses).
bool isArithOp(Operation *op);

} // namespace mlir::vmcu

#endif // VMCU_LIB_TRANSFORMS_RINGADDRESS_H
