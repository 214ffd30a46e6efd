//===- ScheduleNames.h - values of `schedule` and `order` -------*- C++ -*-===//
//
// One table each for vmcu-choose-schedule's `schedule` and
// vmcu-choose-traversal's `order`, which the passes, the pipeline and the
// tools all read, so their checks and messages cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_SCHEDULENAMES_H
#define VMCU_TRANSFORMS_SCHEDULENAMES_H

#include "vmcu/Support/EnumNames.h"

namespace mlir::vmcu {

/// How fused inverted bottlenecks run (vmcu-choose-schedule): auto is the
/// fastest plan within the budget; the others force one plan on every
/// bottleneck.
enum class Schedule { Auto, Fused, LineBuffer, LineBufferPaired, Unfused };
inline constexpr EnumName<Schedule> kSchedules[] = {
    {Schedule::Auto, "auto",
     "the fastest plan within --ram-kb, by the cost model (default)"},
    {Schedule::Fused, "fused", "re-expand per tap: the least RAM"},
    {Schedule::LineBuffer, "line-buffer",
     "expand each pixel once into an R-row buffer in the pool, wherever the "
     "strides allow"},
    {Schedule::LineBufferPaired, "line-buffer-paired",
     "a line buffer, projecting output pixels in pairs: faster, more stack"},
    {Schedule::Unfused, "unfused", "separate layers"},
};

inline bool isScheduleName(llvm::StringRef name) {
  return parseName(kSchedules, name).has_value();
}

/// "auto, fused, ... or unfused", for messages.
inline std::string scheduleNameList() { return nameList(kSchedules); }

/// The order a recomputing bottleneck visits its output pixels in
/// (vmcu-choose-traversal).
enum class TraversalOrder { Auto, Reverse, RowMajor };
inline constexpr EnumName<TraversalOrder> kTraversalOrders[] = {
    {TraversalOrder::Auto, "auto",
     "per block, the order with the smaller footprint (default)"},
    {TraversalOrder::Reverse, "reverse",
     "reverse row-major for every recomputing block"},
    {TraversalOrder::RowMajor, "row-major", "row-major for every block"},
};

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_SCHEDULENAMES_H
