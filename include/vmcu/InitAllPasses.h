//===- InitAllPasses.h - vmcu pass registration -----------------*- C++ -*-===//
//
// One call that registers every vmcu pass and pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_INITALLPASSES_H
#define VMCU_INITALLPASSES_H

namespace mlir::vmcu {
/// Registers the vmcu transformation and conversion passes.
void registerVMCUPasses();
/// Registers the named pipelines (e.g. `vmcu-tosa-to-llvm`).
void registerVMCUPipelines();
/// Both of the above.
void registerAllPasses();
} // namespace mlir::vmcu

#endif // VMCU_INITALLPASSES_H
