//===- FlagNames.h - compile flag names other tools share -------*- C++ -*-===//
//
// The names of the compile flags (CompileFlags::bind) that vmcu-prof also
// takes, with the same meaning for the ELF it runs: the core, the number of
// cores, the flash wait states and the model's symbol prefix. Each name is
// spelled here once.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_PIPELINES_FLAGNAMES_H
#define VMCU_PIPELINES_FLAGNAMES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::vmcu::flag_names {

inline constexpr llvm::StringLiteral kCpu = "cpu";
inline constexpr llvm::StringLiteral kCores = "cores";
inline constexpr llvm::StringLiteral kFlashWaitStates = "flash-wait-states";
inline constexpr llvm::StringLiteral kSymbolPrefix = "symbol-prefix";

} // namespace mlir::vmcu::flag_names

#endif // VMCU_PIPELINES_FLAGNAMES_H
