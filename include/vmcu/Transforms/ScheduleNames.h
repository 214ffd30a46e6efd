//===- ScheduleNames.h - values of the `schedule` option --------*- C++ -*-===//
//
// One list for vmcu-choose-schedule, the pipeline and the tools, so their
// checks and messages cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_SCHEDULENAMES_H
#define VMCU_TRANSFORMS_SCHEDULENAMES_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::vmcu {

/// auto: the fastest plan within the budget; the others force one plan on
/// every bottleneck: fused (recompute), line-buffer, line-buffer-paired
/// (a line buffer and paired projections) or unfused.
inline constexpr llvm::StringLiteral kScheduleNames[] = {
    "auto", "fused", "line-buffer", "line-buffer-paired", "unfused"};

inline bool isScheduleName(llvm::StringRef name) {
  return llvm::is_contained(kScheduleNames, name);
}

/// "auto, fused, ... or unfused", for messages.
inline std::string scheduleNameList() {
  std::string list;
  for (auto [i, name] : llvm::enumerate(kScheduleNames)) {
    if (i > 0)
      list += i + 1 == std::size(kScheduleNames) ? " or " : ", ";
    list += name.str();
  }
  return list;
}

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_SCHEDULENAMES_H
