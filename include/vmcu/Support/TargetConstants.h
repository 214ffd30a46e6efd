//===- TargetConstants.h - target and int8 constants of vmcu ----*- C++ -*-===//

#ifndef VMCU_SUPPORT_TARGETCONSTANTS_H
#define VMCU_SUPPORT_TARGETCONSTANTS_H

#include <cstdint>

namespace mlir::vmcu {

/// Bytes of a 32-bit word on Armv7E-M / Armv8-M (the Arm ARM's word).
inline constexpr int64_t kWordBytes = 4;
/// Smallest int8 value (the range of TOSA's and TFLite's int8 tensors).
inline constexpr int64_t kInt8Min = -128;
/// Largest int8 value (the range of TOSA's and TFLite's int8 tensors).
inline constexpr int64_t kInt8Max = 127;
/// int8 lanes of one vmcu.dot: an SMLAD pair, each SMLAD two int16 pairs.
inline constexpr int64_t kDotLanes = 4;
/// Bits of an int16 half of a word (the halves SXTB16, SMLAD and SMLABB
/// read).
inline constexpr int64_t kHalfWordBits = 16;
/// Smallest shift of a TOSA 1.0 rescale (the spec's apply_scale_32).
inline constexpr int64_t kTosaRescaleMinShift = 2;
/// Largest shift of a TOSA 1.0 rescale (the spec's apply_scale_32).
inline constexpr int64_t kTosaRescaleMaxShift = 62;

} // namespace mlir::vmcu

#endif // VMCU_SUPPORT_TARGETCONSTANTS_H
