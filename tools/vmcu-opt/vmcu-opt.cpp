//===- vmcu-opt.cpp - vmcu optimizer driver -------------------------------===//
//
// mlir-opt with the vmcu dialect, its passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "mlir/Conversion/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllExtensions.h"
#include "vmcu/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::vmcu::registerAllDialects(registry);
  mlir::vmcu::registerAllExtensions(registry);
  mlir::vmcu::registerAllPasses();
  // The generic cleanups users chain with vmcu passes.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  // The upstream lowering steps of the vmcu-tosa-to-llvm pipeline, and the
  // generic convert-to-llvm (vmcu implements its interface).
  mlir::registerConvertToLLVMPass();
  mlir::registerLowerAffinePass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::registerSCFToControlFlowPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "vmcu optimizer: int8 TOSA to a circular segment pool for Cortex-M\n",
      registry));
}
