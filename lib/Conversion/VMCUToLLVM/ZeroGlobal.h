//===- ZeroGlobal.h - zero-initialised module globals -----------*- C++ -*-===//
//
// Internal: the mutable, zero-initialised globals the vmcu to LLVM patterns
// create (the arena in RingToLLVM, the sync words in SyncToLLVM).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_LIB_CONVERSION_VMCUTOLLVM_ZEROGLOBAL_H
#define VMCU_LIB_CONVERSION_VMCUTOLLVM_ZEROGLOBAL_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::vmcu::detail {

/// Creates the mutable global `name` of `type` at the start of `module`,
/// zero initialised so it gets no file contents.
inline LLVM::GlobalOp createZeroGlobal(OpBuilder &builder, ModuleOp module,
                                       Location loc, Type type,
                                       LLVM::Linkage linkage, StringRef name,
                                       uint64_t alignment) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto global =
      LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/false, linkage,
                             name, /*value=*/Attribute(), alignment);
  builder.createBlock(&global.getInitializerRegion());
  Value zero = LLVM::ZeroOp::create(builder, loc, type);
  LLVM::ReturnOp::create(builder, loc, zero);
  return global;
}

} // namespace mlir::vmcu::detail

#endif // VMCU_LIB_CONVERSION_VMCUTOLLVM_ZEROGLOBAL_H
