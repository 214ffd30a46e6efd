//===- InitAllExtensions.h - vmcu dialect extensions ------------*- C++ -*-===//
//
// One call that attaches the interfaces vmcu tools need to the dialects of
// registerAllDialects: ConvertToLLVMPatternInterface (vmcu and upstream)
// and the func inliner.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_INITALLEXTENSIONS_H
#define VMCU_INITALLEXTENSIONS_H

namespace mlir {
class DialectRegistry;
namespace vmcu {
/// Registers the ConvertToLLVM interfaces of vmcu, arith, cf, func, index,
/// memref, ub and vector, and the func inliner extension.
void registerAllExtensions(DialectRegistry &registry);
} // namespace vmcu
} // namespace mlir

#endif // VMCU_INITALLEXTENSIONS_H
