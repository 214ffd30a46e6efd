//===- VMCUOps.h - vmcu operations ------------------------------*- C++ -*-===//
//
// Declares the vmcu ops; include this to use the dialect.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_DIALECT_VMCU_IR_VMCUOPS_H
#define VMCU_DIALECT_VMCU_IR_VMCUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "vmcu/Dialect/VMCU/IR/VMCUAttributes.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Dialect/VMCU/IR/VMCUInterfaces.h"
#include "vmcu/Dialect/VMCU/IR/VMCUTypes.h"

#define GET_OP_CLASSES
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h.inc"

namespace mlir::vmcu {
/// Whether `op` is or holds a vmcu.ring_load, ring_view or ring_store.
bool accessesRing(Operation *op);

/// The op of a kernel's body that holds its split loop: the first that
/// holds a ring load, view or store, top-level ring_views aside (they only
/// make a pointer into the pool, which each core of a split kernel makes
/// before the split loop reads through it).
Operation *splitLoopHolder(Block &kernelBody);

/// What one ring op does to the pool: the bytes from byte `offset` (a
/// value, or none for 0) of unit `segment` (an unwrapped unit address).
struct RingAccess {
  enum class Kind { Load, Store, View, Free };
  Kind kind;
  Value segment, offset;
  int64_t bytes;
  /// Whether the access changes the unit (a store or a free).
  bool writes() const { return kind == Kind::Store || kind == Kind::Free; }
};

/// The access of a ring_load, ring_store, ring_view or free in a pool of
/// `unitBytes`-byte units; none for any other op.
std::optional<RingAccess> getRingAccess(Operation *op, int64_t unitBytes);
} // namespace mlir::vmcu

#endif // VMCU_DIALECT_VMCU_IR_VMCUOPS_H
