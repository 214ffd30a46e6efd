//===- Passes.h - vmcu conversion passes ------------------------*- C++ -*-===//
//
// Includes every vmcu conversion and declares their registration.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_CONVERSION_PASSES_H
#define VMCU_CONVERSION_PASSES_H

#include "vmcu/Conversion/TosaToVMCU/TosaToVMCU.h"
#include "vmcu/Conversion/VMCUToLLVM/VMCUToLLVM.h"

namespace mlir::vmcu {

#define GEN_PASS_REGISTRATION
#include "vmcu/Conversion/Passes.h.inc"

} // namespace mlir::vmcu

#endif // VMCU_CONVERSION_PASSES_H
