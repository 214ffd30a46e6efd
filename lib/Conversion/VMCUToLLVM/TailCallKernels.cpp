//===- TailCallKernels.cpp - the vmcu-tail-call-kernels pass --------------===//
//
// Marks `musttail` each direct call that ends its caller (an llvm.return of
// exactly its results follows) and whose callee has the caller's type, so
// that the caller's frame is popped before the callee runs.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUTAILCALLKERNELSPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// Whether `call` may be a guaranteed tail call: a return of its results
/// follows it, and its callee, a function of `module`, has its caller's
/// type.
bool endsCallerWithItsType(LLVM::CallOp call, ModuleOp module) {
  auto ret = dyn_cast_or_null<LLVM::ReturnOp>(call->getNextNode());
  if (!ret || !llvm::equal(ret.getOperands(), call.getResults()))
    return false;
  std::optional<StringRef> name = call.getCallee();
  auto callee = name ? module.lookupSymbol<LLVM::LLVMFuncOp>(*name) : nullptr;
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  return callee && callee.getFunctionType() == caller.getFunctionType() &&
         callee.getCConv() == caller.getCConv();
}

struct VMCUTailCallKernelsPass
    : impl::VMCUTailCallKernelsPassBase<VMCUTailCallKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module.walk([&](LLVM::CallOp call) {
      if (endsCallerWithItsType(call, module))
        call.setTailCallKind(LLVM::tailcallkind::TailCallKind::MustTail);
    });
  }
};

} // namespace

} // namespace mlir::vmcu
