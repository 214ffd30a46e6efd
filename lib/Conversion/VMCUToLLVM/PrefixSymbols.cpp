//===- PrefixSymbols.cpp - the vmcu-prefix-symbols pass -------------------===//
//
// Renames the model's exported C API symbols (vmcu_invoke, vmcu_arena, ...)
// to another prefix, so that several models link into one firmware.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUPREFIXSYMBOLSPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// Whether `op` defines one of the C API's symbols (model_abi::
/// kExportedSymbols): a function body or a global, not a declaration.
bool definesExportedSymbol(Operation *op) {
  auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
  if (func && func.isExternal())
    return false;
  if (!func && !isa<LLVM::GlobalOp>(op))
    return false;
  StringRef name = SymbolTable::getSymbolName(op).getValue();
  return llvm::is_contained(model_abi::kExportedSymbols, name);
}

struct VMCUPrefixSymbolsPass
    : impl::VMCUPrefixSymbolsPassBase<VMCUPrefixSymbolsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!model_abi::isValidSymbolPrefix(prefix)) {
      emitError(module.getLoc(), "vmcu-prefix-symbols: symbol prefix '")
          << prefix << "' is not a C identifier";
      return signalPassFailure();
    }
    if (prefix == model_abi::kSymbolPrefix)
      return;
    SymbolTable symbols(module);
    SmallVector<Operation *> exported;
    for (Operation &op : module.getBody()->getOperations())
      if (definesExportedSymbol(&op))
        exported.push_back(&op);
    for (Operation *op : exported) {
      StringRef name = SymbolTable::getSymbolName(op).getValue();
      std::string renamed = model_abi::prefixed(name, prefix);
      if (symbols.lookup(renamed)) {
        op->emitError("vmcu-prefix-symbols: '")
            << renamed << "' is already defined";
        return signalPassFailure();
      }
      if (failed(symbols.rename(op, renamed)))
        return signalPassFailure();
    }
  }
};

} // namespace

} // namespace mlir::vmcu
