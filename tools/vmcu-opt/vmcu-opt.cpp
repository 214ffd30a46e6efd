//===- vmcu-opt.cpp - vmcu optimizer driver -------------------------------===//
//
// mlir-opt with the vmcu dialect, its passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::vmcu::registerAllDialects(registry);
  mlir::vmcu::registerAllPasses();
  // The generic cleanups users chain with vmcu passes.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "vmcu optimizer: int8 TOSA to a circular segment pool for Cortex-M\n",
      registry));
}
