//===- CompactLevels.h - loop levels compact kernels unroll -----*- C++ -*-===//
//
// vmcu-unroll-microkernels' compact-levels, which a flash budget chooses
// (FlashPlan::compactLevels): docs/flash.md, "Two levels".
//
//===----------------------------------------------------------------------===//

#ifndef VMCU_TRANSFORMS_COMPACTLEVELS_H
#define VMCU_TRANSFORMS_COMPACTLEVELS_H

namespace mlir::vmcu {

/// In the smallest plan (and by default): the lanes of one input segment.
inline constexpr unsigned kCompactLevelsSmallest = 1;
/// In the faster form a flash budget tries first: also the channels of one
/// output segment, their accumulators in registers.
inline constexpr unsigned kCompactLevelsFaster = 2;

} // namespace mlir::vmcu

#endif // VMCU_TRANSFORMS_COMPACTLEVELS_H
