//===- AssignSections.cpp - the vmcu-assign-sections pass -----------------===//
//
// Puts the arena and the model's constant tables (weights, biases,
// requantization and rescale tables) in the linker sections the user
// names, so a linker script can map them to TCM or external flash.
//
//===----------------------------------------------------------------------===//

#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "vmcu/Dialect/VMCU/IR/ModelABI.h"

namespace mlir::vmcu {
#define GEN_PASS_DEF_VMCUASSIGNSECTIONSPASS
#include "vmcu/Conversion/Passes.h.inc"

namespace {

/// The model's own constant tables: private or internal constants with an
/// initializer. The exported C API tables (vmcu_input_offsets, ...) stay
/// in .rodata.
bool isModelTable(LLVM::GlobalOp global) {
  LLVM::Linkage linkage = global.getLinkage();
  return global.getConstant() && (linkage == LLVM::Linkage::Private ||
                                  linkage == LLVM::Linkage::Internal);
}

struct VMCUAssignSectionsPass
    : impl::VMCUAssignSectionsPassBase<VMCUAssignSectionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arenaSection.empty()) {
      emitError(module.getLoc(),
                "vmcu-assign-sections: arena-section must not be empty");
      return signalPassFailure();
    }
    module.walk([&](LLVM::GlobalOp global) {
      if (global.getSymName() == model_abi::kArena)
        global.setSection(StringRef(arenaSection));
      else if (!weightsSection.empty() && isModelTable(global))
        global.setSection(StringRef(weightsSection));
    });
  }
};

} // namespace

} // namespace mlir::vmcu
