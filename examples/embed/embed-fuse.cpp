//===- embed-fuse.cpp - a host compiler running one vmcu pass -------------===//
//
// Shows the embedding API: register the vmcu dialect, parse a module, run
// vmcu-fuse-bottleneck from C++ and print the result.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: embed-fuse FILE.mlir\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::vmcu::registerVMCUDialect(registry);
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addNestedPass<mlir::func::FuncOp>(
      mlir::vmcu::createVMCUFuseBottleneckPass());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
