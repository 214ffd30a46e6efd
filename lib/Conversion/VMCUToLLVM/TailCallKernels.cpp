//===- TailCallKernels.cpp - the vmcu-tail-call-kernels pass --------------===//
//
// Makes the call that ends a function a guaranteed tail call: where the
// callee returns nothing and the caller then returns constants (the last
// kernel and vmcu_invoke's status), the callee returns them itself, and the
// call is marked `musttail`, so the caller's frame is popped before the
// callee runs.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUTAILCALLKERNELSPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// The return that follows `call`, with only constants between.
LLVM::ReturnOp returnAfter(LLVM::CallOp call) {
  Operation *op = call->getNextNode();
  while (isa_and_nonnull<LLVM::ConstantOp>(op))
    op = op->getNextNode();
  return dyn_cast_or_null<LLVM::ReturnOp>(op);
}

/// Whether a guaranteed tail call of `callee` by `call` leaves nothing of
/// `caller`'s frame in use: neither takes parameters and the caller has no
/// stack slot (no pointer into its frame can reach the callee), and one
/// calling convention holds for all three, without operand bundles.
bool leavesCallerFrame(LLVM::CallOp call, LLVM::LLVMFuncOp caller,
                       LLVM::LLVMFuncOp callee) {
  bool slots =
      caller.walk([](LLVM::AllocaOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  return !callee.isExternal() && caller.getNumArguments() == 0 &&
         callee.getNumArguments() == 0 && !caller.isVarArg() &&
         !callee.isVarArg() && callee.getCConv() == caller.getCConv() &&
         call.getCConv() == caller.getCConv() &&
         call.getOpBundleOperands().empty() && !slots;
}

/// Whether `callee` may return the constants `ret` returns after `call`:
/// it returns nothing, is internal, `call` is its only use, and it makes no
/// guaranteed tail call of its own (which must stay right before a return).
bool mayReturnForCaller(LLVM::CallOp call, LLVM::ReturnOp ret,
                        LLVM::LLVMFuncOp callee) {
  bool constants = llvm::all_of(ret.getOperands(), [](Value value) {
    return value.getDefiningOp<LLVM::ConstantOp>();
  });
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(callee, callee->getParentOp());
  bool onlyHere = uses && llvm::hasSingleElement(*uses) &&
                  uses->begin()->getUser() == call.getOperation();
  bool ownTailCall =
      callee
          .walk([](LLVM::CallOp inner) {
            return inner.getTailCallKind() ==
                           LLVM::tailcallkind::TailCallKind::MustTail
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  return constants && callee.getNumResults() == 0 &&
         callee.getLinkage() == LLVM::Linkage::Internal && onlyHere &&
         !ownTailCall;
}

/// A call that may end its caller as a guaranteed tail call: its callee,
/// the return that follows it, and whether that return passes on the
/// call's results (else it returns constants).
struct TailCall {
  LLVM::LLVMFuncOp callee;
  LLVM::ReturnOp ret;
  bool passesOn;
};

/// `call` as a tail call, if it may be one: a return follows it
/// (returnAfter), the caller's frame is left (leavesCallerFrame), and the
/// return passes on the call's results from a callee of the caller's type,
/// or returns constants the callee may return itself (mayReturnForCaller).
std::optional<TailCall> asTailCall(LLVM::CallOp call) {
  LLVM::ReturnOp ret = returnAfter(call);
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  FlatSymbolRefAttr name = call.getCalleeAttr();
  if (!ret || !caller || !name)
    return std::nullopt;
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(call, name);
  if (!callee || !leavesCallerFrame(call, caller, callee))
    return std::nullopt;
  bool passesOn = llvm::equal(ret.getOperands(), call.getResults());
  if (passesOn ? callee.getFunctionType() == caller.getFunctionType()
               : mayReturnForCaller(call, ret, callee))
    return TailCall{callee, ret, passesOn};
  return std::nullopt;
}

/// Makes `callee` return what `ret`, after `call`, returns (constants,
/// cloned before each of its returns) and `ret` return the call's result.
/// Returns the new call.
LLVM::CallOp returnFromCallee(LLVM::CallOp call, LLVM::ReturnOp ret,
                              LLVM::LLVMFuncOp callee) {
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  callee.setFunctionType(caller.getFunctionType());
  SmallVector<LLVM::ReturnOp> returns;
  callee.walk([&](LLVM::ReturnOp r) { returns.push_back(r); });
  for (LLVM::ReturnOp r : returns) {
    OpBuilder b(r);
    SmallVector<Value> values;
    for (Value value : ret.getOperands())
      values.push_back(b.clone(*value.getDefiningOp())->getResult(0));
    r->setOperands(values);
  }
  OpBuilder b(call);
  auto result =
      LLVM::CallOp::create(b, call.getLoc(), callee, call.getArgOperands());
  // The call's convention, flags and attributes carry over.
  result.getProperties() = call.getProperties();
  result->setDiscardableAttrs(call->getDiscardableAttrDictionary());
  llvm::SetVector<Operation *> constants;
  for (Value value : ret.getOperands())
    constants.insert(value.getDefiningOp());
  ret->setOperands(result.getResults());
  call.erase();
  for (Operation *constant : constants)
    if (constant->use_empty())
      constant->erase();
  return result;
}

/// Makes every call in `module` that may end its caller a tail call.
void makeTailCalls(ModuleOp module) {
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) { calls.push_back(call); });
  for (LLVM::CallOp call : calls) {
    std::optional<TailCall> tail = asTailCall(call);
    if (!tail)
      continue;
    // The constants between go first: the return follows the call.
    while (call->getNextNode() != tail->ret)
      call->getNextNode()->moveBefore(call);
    if (!tail->passesOn)
      call = returnFromCallee(call, tail->ret, tail->callee);
    call.setTailCallKind(LLVM::tailcallkind::TailCallKind::MustTail);
  }
}

struct VMCUTailCallKernelsPass
    : impl::VMCUTailCallKernelsPassBase<VMCUTailCallKernelsPass> {
  using Base::Base;
  void runOnOperation() override { makeTailCalls(getOperation()); }
};

} // namespace

} // namespace mlir::vmcu
