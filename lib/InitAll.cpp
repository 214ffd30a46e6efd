//===- InitAll.cpp - vmcu registration entry points -----------------------===//
//
// Out-of-line registration, so tools and embedders share one list.
//
//===----------------------------------------------------------------------===//

#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Transforms/Passes.h"

void mlir::vmcu::registerAllDialects(DialectRegistry &registry) {
  registerVMCUDialect(registry);
  registry.insert<arith::ArithDialect, func::FuncDialect, LLVM::LLVMDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, tosa::TosaDialect,
                  vector::VectorDialect>();
}

void mlir::vmcu::registerVMCUPasses() { registerVMCUTransformsPasses(); }

void mlir::vmcu::registerVMCUPipelines() {}

void mlir::vmcu::registerAllPasses() {
  registerVMCUPasses();
  registerVMCUPipelines();
}
