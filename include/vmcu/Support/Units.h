//===- Units.h - units of vmcu's options and reports ------------*- C++ -*-===//

#ifndef VMCU_SUPPORT_UNITS_H
#define VMCU_SUPPORT_UNITS_H

#include <cstdint>

namespace mlir::vmcu {

/// The unit of every `-kb` option (--ram-kb and the passes' budgets).
inline constexpr int64_t kBytesPerKiB = 1024;

/// The unit of every `-percent` option and share (--flash-slowdown-percent,
/// vmcu-split-kernels' growth, the cost model's compact share).
inline constexpr int64_t kPercent = 100;

} // namespace mlir::vmcu

#endif // VMCU_SUPPORT_UNITS_H
