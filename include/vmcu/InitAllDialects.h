//===- InitAllDialects.h - vmcu dialect registration ------------*- C++ -*-===//
//
// One call that registers vmcu and every dialect its pipeline touches.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_INITALLDIALECTS_H
#define VMCU_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
namespace vmcu {
/// Registers vmcu plus the upstream dialects vmcu-opt parses: tosa, func,
/// arith, affine, scf, cf, math, memref, tensor, vector and llvm.
void registerAllDialects(DialectRegistry &registry);
} // namespace vmcu
} // namespace mlir

#endif // VMCU_INITALLDIALECTS_H
