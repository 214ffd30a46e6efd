//===- InitAll.cpp - vmcu registration entry points -----------------------===//
//
// Out-of-line registration, so tools and embedders share one list.
//
//===----------------------------------------------------------------------===//

#include "vmcu/InitAllDialects.h"
#include "vmcu/InitAllExtensions.h"
#include "vmcu/InitAllPasses.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "vmcu/Conversion/Passes.h"
#include "vmcu/Dialect/VMCU/IR/VMCUDialect.h"
#include "vmcu/Pipelines/Pipelines.h"
#include "vmcu/Transforms/Passes.h"

void mlir::vmcu::registerAllDialects(DialectRegistry &registry) {
  registerVMCUDialect(registry);
  registry.insert<affine::AffineDialect, cf::ControlFlowDialect>();
  registry.insert<arith::ArithDialect, func::FuncDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
                  tosa::TosaDialect, vector::VectorDialect>();
}

void mlir::vmcu::registerAllExtensions(DialectRegistry &registry) {
  registerConvertVMCUToLLVMInterface(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  func::registerInlinerExtension(registry);
}

void mlir::vmcu::registerVMCUPasses() {
  registerVMCUTransformsPasses();
  registerVMCUConversionPasses();
}

// registerVMCUPipelines() is defined in lib/Pipelines/Pipelines.cpp.

void mlir::vmcu::registerAllPasses() {
  registerVMCUPasses();
  registerVMCUPipelines();
}
