//===- Passes.h - vmcu transformation passes --------------------*- C++ -*-===//
//
// Declares the vmcu transformation passes and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_PASSES_H
#define VMCU_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "vmcu/Dialect/VMCU/IR/VMCUOps.h"
#include "vmcu/Transforms/CompactLevels.h"

namespace mlir::vmcu {

#define GEN_PASS_DECL
#include "vmcu/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "vmcu/Transforms/Passes.h.inc"

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_PASSES_H
