//===- SetTarget.cpp - the vmcu-set-target pass ---------------------------===//
//
// Stamps the Cortex-M core on a module lowered to LLVM: the module's
// triple and data layout, every function's target_cpu and features.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUSETTARGETPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

struct VMCUSetTargetPass : impl::VMCUSetTargetPassBase<VMCUSetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::optional<CortexMTarget> target = lookupCortexMTarget(cpu);
    if (!target) {
      // Not module.emitError: that would print the whole module as a note.
      emitError(module.getLoc(), "unknown cpu '")
          << cpu << "' for vmcu-set-target; expected " << nameList(kTargetCpus);
      return signalPassFailure();
    }
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, target->triple));
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(ctx, kDataLayout));
    auto features = LLVM::TargetFeaturesAttr::get(ctx, target->features);
    module.walk([&](LLVM::LLVMFuncOp fn) {
      fn.setTargetCpu(target->cpu);
      fn.setTargetFeaturesAttr(features);
    });
  }
};

} // namespace

} // namespace mlir::vmcu
