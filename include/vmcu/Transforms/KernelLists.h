//===- KernelLists.h - vmcu-tile's lists of kernels by name -----*- C++ -*-===//
//
// vmcu-tile's int8-weight-kernels and compact-kernels name layers by kernel
// name; `*` names every layer, as a flash budget's trials of one choice
// everywhere do (FlashBudget.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_KERNELLISTS_H
#define VMCU_TRANSFORMS_KERNELLISTS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::vmcu {

/// The list entry that names every kernel.
inline constexpr llvm::StringLiteral kEveryKernel = "*";

/// Whether `list` names the kernel `name` (or every kernel).
inline bool listsKernel(ArrayRef<std::string> list, StringRef name) {
  return llvm::any_of(list, [&](const std::string &entry) {
    return entry == name || entry == kEveryKernel;
  });
}

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_KERNELLISTS_H
