//===- ModelIO.h - the model I/O of a placed module -------------*- C++ -*-===//
//
// Internal: the `vmcu.io` tensor bases of a placed module by position,
// collected and checked once for convert-vmcu-to-llvm (which emits
// vmcu_input/vmcu_output for #0) and vmcu-create-io-tables (every one).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_CONVERSION_VMCUTOLLVM_MODELIO_H
#define VMCU_LIB_CONVERSION_VMCUTOLLVM_MODELIO_H

#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "llvm/ADT/SmallVector.h"

#include <cstddef>

namespace mlir::vmcu::detail {

/// Model inputs (outputs) a lowered model may have: far more than any
/// model has, and a bound on the tables built from vmcu.io_index.
inline constexpr size_t kMaxModelIO = 256;

/// The model's input and output tensors, by position.
struct ModelIO {
  SmallVector<TensorBaseOp> inputs, outputs;
};

/// The model I/O of `module`. Fails with an error at a second tensor for
/// one position, a gap, a position past kMaxModelIO or an I/O tensor
/// without its base segment.
FailureOr<ModelIO> collectModelIO(ModuleOp module);

/// Fails with an error at the op of `module` defining any of `names`, the
/// symbols the lowering reserves.
LogicalResult checkReservedNames(ModuleOp module, ArrayRef<StringRef> names);

} // namespace mlir::vmcu::detail

#endif // VMCU_LIB_CONVERSION_VMCUTOLLVM_MODELIO_H
